import Foundation

extension Transcript {
  /// The tool calls the model made in one step; several calls run in parallel.
  ///
  /// Matches FoundationModels `Transcript.ToolCalls`.
  public struct ToolCalls: Sendable, Identifiable, Equatable, RandomAccessCollection {
    /// Matches FoundationModels `Transcript.ToolCalls.id`.
    public var id: String
    var calls: [ToolCall]

    /// Creates a tool calls entry.
    ///
    /// Matches FoundationModels `Transcript.ToolCalls.init(id:_:)`.
    public init<S: Sequence>(id: String = UUID().uuidString, _ calls: S) where S.Element == ToolCall {
      self.id = id
      self.calls = Array(calls)
    }

    /// Matches FoundationModels `Transcript.ToolCalls.subscript(_:)`.
    public subscript(position: Int) -> ToolCall { calls[position] }
    /// Matches FoundationModels `Transcript.ToolCalls.startIndex`.
    public var startIndex: Int { calls.startIndex }
    /// Matches FoundationModels `Transcript.ToolCalls.endIndex`.
    public var endIndex: Int { calls.endIndex }
  }

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
