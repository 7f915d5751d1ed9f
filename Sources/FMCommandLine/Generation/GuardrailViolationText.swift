import FoundationModels

/// A guardrail violation as `fm` reports it: the side and category the check found, in one line.
enum GuardrailViolationText {
  /// The violation's description, when `error` is one (of either error family).
  static func description(of error: any Error) -> String? {
    switch error {
    case LanguageModelSession.GenerationError.guardrailViolation(let context): context.debugDescription
    case LanguageModelError.guardrailViolation(let payload): payload.debugDescription
    default: nil
    }
  }
}
