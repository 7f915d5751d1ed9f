import Foundation

extension GeneratedContent {
  /// Model output that could not be read as the requested structure.
  ///
  /// Matches FoundationModels 27 `GeneratedContent.ParsingError`.
  public struct ParsingError: Error, LocalizedError, CustomDebugStringConvertible, Sendable {
    /// The text the model produced.
    public var rawContent: String
    /// Why it could not be read, when known.
    public var underlyingError: (any Error)?
    public var debugDescription: String

    public init(rawContent: String, underlyingError: (any Error)? = nil, debugDescription: String) {
      self.rawContent = rawContent
      self.underlyingError = underlyingError
      self.debugDescription = debugDescription
    }

    public var errorDescription: String? { "The model's output could not be read: \(debugDescription)" }
  }
}
