import FMTestSupport
import Testing

@testable import InferenceEngine

@Suite struct PieceTokenCacheTests {
  private func piece(_ text: String, control: Bool = false) -> RenderedPrompt.Piece {
    RenderedPrompt.Piece(text: text, isControl: control)
  }

  @Test func longPiecesAreTokenizedOnceAndShortOnesEveryTime() {
    let cache = PieceTokenCache()
    var calls = 0
    let tokenize = { (piece: RenderedPrompt.Piece) -> [Token] in
      calls += 1
      return piece.text.utf8.map { Token($0) }
    }
    let long = piece(String(repeating: "rivers ", count: 20))
    #expect(cache.tokens(of: long, tokenize: tokenize) == long.text.utf8.map { Token($0) })
    #expect(cache.tokens(of: long, tokenize: tokenize) == long.text.utf8.map { Token($0) })
    #expect(calls == 1)
    // The same text as template text is another piece: control tokens may split it differently.
    _ = cache.tokens(of: piece(long.text, control: true), tokenize: tokenize)
    #expect(calls == 2)
    _ = cache.tokens(of: piece("short"), tokenize: tokenize)
    _ = cache.tokens(of: piece("short"), tokenize: tokenize)
    #expect(calls == 4)
  }

  @Test func aFullCacheStartsOver() {
    let cache = PieceTokenCache(capacity: 2)
    var calls = 0
    let tokenize = { (_: RenderedPrompt.Piece) -> [Token] in
      calls += 1
      return [1]
    }
    let pieces = (0..<3).map { piece(String(repeating: "\($0)", count: 80)) }
    for piece in pieces { _ = cache.tokens(of: piece, tokenize: tokenize) }
    _ = cache.tokens(of: pieces[2], tokenize: tokenize)
    _ = cache.tokens(of: pieces[0], tokenize: tokenize)
    #expect(calls == 4)
  }

  /// The cached path gives exactly the tokens of tokenizing each piece, on the real tokenizer.
  @Test func cachedTokenizationMatchesTokenizingEachPiece() async throws {
    let model = try await TestModels.smolLM2()
    let paragraph = String(repeating: "Rivers carry water from the mountains to the sea, café ☕. ", count: 4)
    let messages = [
      ChatMessage(role: .system, content: "You are helpful."), ChatMessage(role: .user, content: paragraph),
      ChatMessage(role: .assistant, content: paragraph + " <|im_end|>"), ChatMessage(role: .user, content: "And?"),
    ]
    let rendered = model.chatTemplate.render(messages)
    let expected = rendered.pieces.flatMap { model.tokenize($0.text, parseSpecial: $0.isControl) }
    #expect(model.tokenize(rendered) == expected)
    #expect(model.tokenize(rendered) == expected)
  }
}
