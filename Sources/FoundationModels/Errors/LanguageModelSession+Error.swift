import Foundation

extension LanguageModelSession {
  /// A misuse of a session.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.Error`.
  @nonexhaustive
  public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible, Equatable, Hashable {
    /// A request was made while the session was still answering another.
    case concurrentRequests
    /// The transcript was changed while the session was answering.
    case transcriptMutationWhileResponding

    public var debugDescription: String {
      switch self {
      case .concurrentRequests:
        "This session is still responding to an earlier request; wait for it or use another session."
      case .transcriptMutationWhileResponding:
        "The session's history was changed while it was responding."
      }
    }

    public var errorDescription: String? { debugDescription }
  }
}
