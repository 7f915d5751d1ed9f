extension Transcript {
  /// The output of a tool call.
  ///
  /// Matches FoundationModels `Transcript.ToolOutput`.
  public struct ToolOutput: Sendable, Identifiable, Equatable {
    /// The id of the call this output answers.
    public var id: String
    /// The name of the tool.
    public var toolName: String
    /// The output: text for `String` output, structure for generable output.
    public var segments: [Segment]

    /// Creates a tool output.
    ///
    /// Matches FoundationModels `Transcript.ToolOutput.init(id:toolName:segments:)`.
    public init(id: String, toolName: String, segments: [Segment]) {
      self.id = id
      self.toolName = toolName
      self.segments = segments
    }
  }
}
