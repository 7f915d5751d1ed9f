import FoundationModels

/// A served answer under `--guardrails`, for the chat turns' and the text completions'
/// runners alike: checked as it grows, before each piece is sent, and whole at its end; a
/// blocked answer ends where it was blocked. Sent whole (a request without `stream`), its
/// pieces are held until the whole answer passed, so a blocked one sends nothing.
///
/// Without checks every piece is sent at once and nothing is blocked.
struct GuardedAnswer<Piece> {
  private var checks: RequestGuardrails.Checks?
  private let holdsPieces: Bool
  private var held: [Piece] = []
  /// Whether the guardrails blocked the answer.
  private(set) var isBlocked = false

  /// - Parameter whole: whether the answer is sent whole, after the end of the generation.
  init(checks: RequestGuardrails.Checks?, whole: Bool) {
    self.checks = checks
    holdsPieces = whole && checks != nil
  }

  /// Sends `piece` through `deliver`, or holds it until ``release(to:)``.
  mutating func send(_ piece: Piece, to deliver: (Piece) async throws -> Void) async throws {
    if holdsPieces { held.append(piece) } else { try await deliver(piece) }
  }

  /// Checks the answer written so far, `text`, before more of it is sent; true when that
  /// blocks it.
  mutating func blocks(growing text: String) async throws -> Bool {
    guard !isBlocked, checks != nil else { return isBlocked }
    isBlocked = try await Self.blocks { try await checks?.checkGrowingOutput(text) }
    return isBlocked
  }

  /// Checks the whole answer, `text` (what the client gets of it), unless it is blocked already.
  mutating func checkWhole(_ text: String) async throws {
    guard !isBlocked, let checks else { return }
    isBlocked = try await Self.blocks { try await checks.checkOutput(text) }
  }

  /// Sends the held pieces, unless the answer is blocked.
  func release(to deliver: (Piece) async throws -> Void) async throws {
    guard !isBlocked else { return }
    for piece in held { try await deliver(piece) }
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
