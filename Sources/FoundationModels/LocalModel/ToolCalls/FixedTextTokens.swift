import GuidedDecoding
import InferenceEngine

/// The tokens that write a choice among fixed texts (the next call or the calls' closing, the
/// next member or the end of a call), byte by byte: where two texts begin alike (`<invoke` and
/// `</minimax:tool_call>` both with `<` in a vocabulary that spells them), the choice is made
/// where they part, not on the first token.
///
/// A control token counts by its text where it is one of the format's (`shown`).
final class FixedTextTokens: @unchecked Sendable {
  // Used by one generation on the engine's work queue only.
  private let model: any TokenModel
  private let vocabulary: Vocabulary
  private let shown: [Token: [UInt8]]
  private var allowed: [[[UInt8]]: [Int]] = [:]
  private var tokenized: [[UInt8]: [Token]] = [:]

  /// - Parameter texts: the format's fixed texts, where its control tokens are.
  init(model: any TokenModel, texts: [String]) {
    self.model = model
    vocabulary = GuidedVocabularyCache.vocabulary(for: model)
    shown = model.controlTokens.shown(texts)
  }

  /// A token's text: a control token's where it is one of the format's.
  func text(of token: Token) -> [UInt8] { shown[token] ?? model.piece(of: token) }

  /// The tokens of `bytes`, as the model's tokenizer writes them, control tokens included;
  /// tokenized once.
  func tokens(_ bytes: [UInt8]) -> [Token] {
    if bytes.isEmpty { return [] }
    if let known = tokenized[bytes] { return known }
    let found = model.tokenize(String(decoding: bytes, as: UTF8.self), parseSpecial: true)
    tokenized[bytes] = found
    return found
  }

  /// The tokens of `text`, as `tokens(_:)`.
  func tokens(_ text: String) -> [Token] { tokens(Array(text.utf8)) }

  /// The tokens that go on with texts that have `rest` left: those whose text begins one of
  /// them, and the first token of each as the tokenizer writes it.
  func allowed(continuing rest: [[UInt8]]) -> [Int] {
    if let known = allowed[rest] { return known }
    var found: [Int] = []
    for (id, piece) in vocabulary.tokens.enumerated() where !piece.isEmpty {
      if rest.contains(where: { $0.starts(with: piece) }) { found.append(id) }
    }
    for text in rest {
      if let first = tokens(text).first, !found.contains(Int(first)) { found.append(Int(first)) }
    }
    allowed[rest] = found
    return found
  }

  /// What each of `alternatives` that `written` begins has left.
  static func remaining(_ alternatives: [[UInt8]], after written: [UInt8]) -> [[UInt8]] {
    alternatives.filter { $0.starts(with: written) }.map { Array($0[written.count...]) }
  }

  /// Bans every token but `allowed` (and the end of the turn where `orTheEnd`).
  func keepOnly(_ allowed: [Int], orTheEnd: Bool, in logits: UnsafeMutableBufferPointer<Float>) {
    let kept = (allowed + (orTheEnd ? vocabulary.endOfSequenceTokens : [])).filter { $0 < logits.count }
      .map { ($0, logits[$0]) }
    for index in 0..<logits.count { logits[index] = -.infinity }
    for (index, logit) in kept { logits[index] = logit }
  }
}
