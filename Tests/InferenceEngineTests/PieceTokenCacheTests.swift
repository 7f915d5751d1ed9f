import FMTestSupport
import Testing

@testable import InferenceEngine

@Suite struct PieceTokenCacheTests {
  @Test func longPiecesAreTokenizedOnceAndShortOnesEveryTime() {
    let cache = PieceTokenCache()
    var calls = 0
    let tokenize = { (text: String) -> [Token] in
      calls += 1
      return text.utf8.map { Token($0) }
    }
    let long = String(repeating: "rivers ", count: 20)
    #expect(cache.tokens(of: long, tokenize: tokenize) == long.utf8.map { Token($0) })
    #expect(cache.tokens(of: long, tokenize: tokenize) == long.utf8.map { Token($0) })
    #expect(calls == 1)
    _ = cache.tokens(of: "short", tokenize: tokenize)
    _ = cache.tokens(of: "short", tokenize: tokenize)
    #expect(calls == 3)
  }

  @Test func aFullCacheStartsOver() {
    let cache = PieceTokenCache(capacity: 2)
    var calls = 0
    let tokenize = { (_: String) -> [Token] in
      calls += 1
      return [1]
    }
    let pieces = (0..<3).map { String(repeating: "\($0)", count: 80) }
    for piece in pieces { _ = cache.tokens(of: piece, tokenize: tokenize) }
    _ = cache.tokens(of: pieces[2], tokenize: tokenize)
    _ = cache.tokens(of: pieces[0], tokenize: tokenize)
    #expect(calls == 4)
  }

  /// The cached path gives exactly the tokens of the uncached one, on the real tokenizer.
  @Test func cachedTokenizationMatchesTheUncachedOne() async throws {
    let model = try await TestModels.smolLM2()
    let paragraph = String(repeating: "Rivers carry water from the mountains to the sea, café ☕. ", count: 4)
    let messages = [
      ChatMessage(role: .system, content: "You are helpful."), ChatMessage(role: .user, content: paragraph),
      ChatMessage(role: .assistant, content: paragraph + " <|im_end|>"), ChatMessage(role: .user, content: "And?"),
    ]
    let rendered = try model.chatTemplate!.render(messages)
    let expected = model.tokenize(rendered.pieces[...]) { model.tokenize($0, parseSpecial: false) }
    #expect(model.tokenize(rendered) == expected)
    #expect(model.tokenize(rendered) == expected)
  }
}
