/// The third stage of the checks: a language model asked whether a text is unsafe, with its
/// answer constrained to yes or no, or a guard model's own verdict.
///
/// Asked only about texts the classifier is unsure of.
public protocol GuardrailJudge: Sendable {
  /// Whether `text` is unsafe in `category`.
  /// - Throws: when the model cannot answer; the check then decides by the classifier alone.
  func isUnsafe(_ text: String, category: GuardrailCategory) async throws -> Bool

  /// The category `text` is unsafe in, or nil when it is safe; `mostLikely` is the category the
  /// classifier found most likely. By default, `mostLikely` when ``isUnsafe(_:category:)`` says
  /// so; a judge with categories of its own (a guard model) names the one it found.
  /// - Throws: when the model cannot answer; the check then decides by the classifier alone.
  func violation(in text: String, mostLikely: GuardrailCategory) async throws -> GuardrailCategory?
}

extension GuardrailJudge {
  public func violation(in text: String, mostLikely: GuardrailCategory) async throws -> GuardrailCategory? {
    try await isUnsafe(text, category: mostLikely) ? mostLikely : nil
  }
}
