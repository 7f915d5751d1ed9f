/// The third stage of the checks: a language model asked whether a text is unsafe, with its
/// answer constrained to yes or no.
///
/// Asked only about texts the classifier is unsure of.
public protocol GuardrailJudge: Sendable {
  /// Whether `text` is unsafe in `category`.
  /// - Throws: when the model cannot answer; the check then decides by the classifier alone.
  func isUnsafe(_ text: String, category: GuardrailCategory) async throws -> Bool
}
