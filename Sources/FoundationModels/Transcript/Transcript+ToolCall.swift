extension Transcript {
  /// One call of a tool, with the arguments the model generated.
  ///
  /// Matches FoundationModels `Transcript.ToolCall`.
  public struct ToolCall: Sendable, Identifiable, Equatable {
    /// The call's id; its output has the same id.
    public var id: String
    /// The name of the tool.
    public var toolName: String
    /// The arguments, following the tool's parameter schema.
    public var arguments: GeneratedContent

    /// Creates a tool call.
    ///
    /// Matches FoundationModels `Transcript.ToolCall.init(id:toolName:arguments:)`.
    public init(id: String, toolName: String, arguments: GeneratedContent) {
      self.id = id
      self.toolName = toolName
      self.arguments = arguments
    }
  }
}
