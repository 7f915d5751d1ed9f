/// An error from the inference engine: what went wrong, and why, in words a user can act on.
public struct EngineError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of failure this is, for callers that map errors (exit codes, API errors).
  public enum Code: String, Sendable {
    case modelNotFound
    case invalidModelFile
    case unsupportedArchitecture
    case contextCreationFailed
    case promptTooLong
    case contextFull
    case decodeFailed
    case cancelled
    case invalidRequest
    /// A chat template that does not parse, or raised while rendering a conversation.
    case invalidChatTemplate
    /// Every slot of a batched model is busy and as many requests as its queue takes wait.
    case queueFull
  }

  public let code: Code
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}
