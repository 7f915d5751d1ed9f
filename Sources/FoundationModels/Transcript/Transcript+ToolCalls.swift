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
}
