import GuidedDecoding
import InferenceEngine

/// Constrains a generation to JSON of a schema: the engine's `TokenConstraint` over guided
/// decoding's `TokenMatcher`.
///
/// Forced text (the next key, a closing brace) is tokenized with the model's own tokenizer, as
/// the model would have written it, and emitted without sampling; its last token may give way
/// to a longer one the model prefers (`extensions(of:)`).
///
/// A number ends where the model would end it. The constraint admits compact JSON only, so a
/// model that pretty-prints, having written `120`, wants `}\n` or a line break, which are
/// banned, and the best allowed token may be another digit: `1200`. Wherever a number may end,
/// the model's best choice among the tokens that end it and the layout tokens (white space,
/// `,`, `]`, `}`: `Vocabulary.layoutTokens`) is weighed against its best digit (or `.`, `e`):
/// when ending wins, only the tokens that end the number remain.
final class SchemaConstraint: InferenceEngine.TokenConstraint, @unchecked Sendable {
  // Used by one generation on the engine's work queue only.
  private let matcher: TokenMatcher
  private let model: any TokenModel
  private let endOfSequenceCount: Int
  private let schema: CompiledSchema
  /// Where the automaton came from and goes back to when the generation is over.
  private let automata: SchemaAutomata

  init(schema: CompiledSchema, automata: SchemaAutomata, model: any TokenModel) {
    let vocabulary = GuidedVocabularyCache.vocabulary(for: model)
    matcher = TokenMatcher(automaton: automata.take(schema), vocabulary: vocabulary)
    self.model = model
    self.schema = schema
    self.automata = automata
    endOfSequenceCount = vocabulary.endOfSequenceTokens.count
  }

  deinit {
    automata.giveBack(matcher.automaton, of: schema)
  }

  func forcedTokens() -> [Token] {
    tokens(for: matcher.forcedBytes())
  }

  func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    var allowed = matcher.allowedTokens()
    if let ending = matcher.numberEndingTokens(among: allowed), prefersEnding(ending, over: allowed, logits) {
      allowed = ending
    }
    for (wordIndex, word) in allowed.words.enumerated() where word != ~0 {
      let base = wordIndex * 64
      for bit in 0..<64 where word & (1 << UInt64(bit)) == 0 {
        let token = base + bit
        guard token < logits.count else { break }
        logits[token] = -.infinity
      }
    }
  }

  /// Whether the model's best choice among the tokens that end the open number and the layout
  /// tokens beats its best among the allowed tokens that go on with the number.
  private func prefersEnding(_ ending: TokenMask, over allowed: TokenMask, _ logits: UnsafeMutableBufferPointer<Float>)
    -> Bool
  {
    var end = -Float.infinity
    var goOn = -Float.infinity
    for token in allowed.allowedTokens where token < logits.count {
      if ending.contains(token) { end = max(end, logits[token]) } else { goOn = max(goOn, logits[token]) }
    }
    for token in matcher.vocabulary.layoutTokens where token < logits.count { end = max(end, logits[token]) }
    return end > goOn
  }

  func accept(_ token: Token) throws {
    try matcher.accept(token: Int(token))
  }

  /// The allowed tokens when there are at most `limit`, and, where a number may end, the
  /// layout tokens that `mask` weighs against going on with it.
  func allowedTokens(limit: Int) -> [Token]? {
    let allowed = matcher.allowedTokens()
    let weighed = matcher.numberEndingTokens(among: allowed) == nil ? [] : matcher.vocabulary.layoutTokens
    guard allowed.allowedCount + weighed.count <= limit else { return nil }
    return (allowed.allowedTokens + weighed.filter { !allowed.contains($0) }).map { Token($0) }
  }

  func snapshot() -> (any Sendable)? { matcher.snapshot() }

  func restore(_ snapshot: any Sendable) {
    if let snapshot = snapshot as? TokenMatcher.Snapshot { matcher.restore(snapshot) }
  }

  func extensions(of token: Token) -> [Token] {
    matcher.extensions(of: Int(token)).map { Token($0) }
  }

  func acceptExtension(of token: Token, by longer: Token) throws {
    try matcher.acceptExtension(of: Int(token), by: Int(longer))
  }

  var isComplete: Bool { matcher.isComplete }

  /// Complete, and nothing but the end of the output may follow.
  var mustEnd: Bool {
    matcher.hasEnded || (matcher.isComplete && matcher.allowedTokens().allowedCount == endOfSequenceCount)
  }

  func tokensToClose() -> [Token] {
    tokens(for: matcher.closingBytes() ?? [])
  }

  /// The closing text's length in bytes: no tokenization, however deep the output is nested.
  var closingTokenBound: Int { matcher.closingLength() ?? 0 }

  /// The model's tokenization of forced or closing bytes.
  private func tokens(for bytes: [UInt8]) -> [Token] {
    guard !bytes.isEmpty else { return [] }
    if let text = String(validating: bytes, as: UTF8.self) {
      let tokens = model.tokenize(text, parseSpecial: false)
      // The tokenizer may normalise text; only a faithful tokenization can be forced.
      if tokens.flatMap({ model.piece(of: $0) }) == bytes { return tokens }
    }
    return matcher.vocabulary.greedyTokenize(bytes).map { $0.map { Token($0) } } ?? []
  }
}
