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
    /// Metadata the model's executor attached to the call (27).
    public var metadata: [String: any Codable & Sendable & Equatable]

    /// Creates a tool call.
    ///
    /// Matches FoundationModels `Transcript.ToolCall.init(id:toolName:arguments:)`.
    public init(id: String, toolName: String, arguments: GeneratedContent) {
      self.init(id: id, metadata: [:], toolName: toolName, arguments: arguments)
    }

    /// Creates a tool call with metadata.
    ///
    /// Matches FoundationModels 27 `Transcript.ToolCall.init(id:metadata:toolName:arguments:)`.
    public init(
      id: String, metadata: [String: any Codable & Sendable & Equatable], toolName: String, arguments: GeneratedContent
    ) {
      self.id = id
      self.metadata = metadata
      self.toolName = toolName
      self.arguments = arguments
    }

    public static func == (lhs: ToolCall, rhs: ToolCall) -> Bool {
      lhs.id == rhs.id && lhs.toolName == rhs.toolName && lhs.arguments == rhs.arguments
        && metadataEqual(lhs.metadata, rhs.metadata)
    }
  }
}
