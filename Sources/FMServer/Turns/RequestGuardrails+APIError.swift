import FoundationModels

/// `--guardrails` in a served request's terms: a blocked input is a 400 `content_filter`, a
/// blocked answer ends where it was blocked.
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

  /// Whether the answer so far, `text`, is blocked (checked before more of it is sent).
  mutating func blocksGrowingOutput(_ text: String) async throws -> Bool {
    try await Self.blocks { try await checkGrowingOutput(text) }
  }

  /// Whether the whole answer, `text`, is blocked.
  func blocksOutput(_ text: String) async throws -> Bool {
    try await Self.blocks { try await checkOutput(text) }
  }

  private static func blocks(_ check: () async throws -> Void) async throws -> Bool {
    do {
      try await check()
      return false
    } catch LanguageModelError.guardrailViolation {
      return true
    }
  }
}
