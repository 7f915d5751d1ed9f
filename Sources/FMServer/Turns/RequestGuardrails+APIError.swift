import FoundationModels

/// `--guardrails` in a served request's terms: a blocked input is a 400 `content_filter` (a
/// blocked answer: ``GuardedAnswer``).
extension RequestGuardrails.Checks {
  /// Runs `check`, an input check.
  /// - Throws: `APIError` 400 `content_filter` about `param`, naming the blocked text's source
  ///   and category, when the guardrails block it.
  static func refusingBlockedInput(param: String, _ check: () async throws -> Void) async throws {
    do {
      try await check()
    } catch LanguageModelError.guardrailViolation(let violation) {
      throw APIError.invalid(violation.debugDescription, param: param, code: "content_filter")
    }
  }
}
