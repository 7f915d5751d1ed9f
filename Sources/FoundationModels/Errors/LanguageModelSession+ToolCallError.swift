import Foundation

extension LanguageModelSession {
  /// An error thrown by a tool, wrapped by the session and rethrown from `respond`.
  ///
  /// Matches FoundationModels `LanguageModelSession.ToolCallError`.
  public struct ToolCallError: Swift.Error, LocalizedError {
    /// The tool that threw.
    public var tool: any Tool

    /// The error the tool threw.
    public var underlyingError: any Swift.Error

    /// Creates a tool call error.
    ///
    /// Matches FoundationModels `ToolCallError.init(tool:underlyingError:)`.
    public init(tool: any Tool, underlyingError: any Swift.Error) {
      self.tool = tool
      self.underlyingError = underlyingError
    }

    /// Names the tool and describes the underlying error.
    ///
    /// Matches FoundationModels `ToolCallError.errorDescription`.
    public var errorDescription: String? {
      let underlying =
        (underlyingError as? any LocalizedError)?.errorDescription ?? String(describing: underlyingError)
      return "The tool '\(tool.name)' failed: \(underlying)"
    }
  }
}
