import Foundation

extension Transcript {
  /// Instructions, and the tools the session offers.
  ///
  /// Matches FoundationModels `Transcript.Instructions`.
  public struct Instructions: Sendable, Identifiable, Equatable {
    /// Matches FoundationModels `Transcript.Instructions.id`.
    public var id: String
    /// The instructions' content.
    public var segments: [Segment]
    /// The tools available in the session.
    public var toolDefinitions: [ToolDefinition]

    /// Creates an instructions entry.
    ///
    /// Matches FoundationModels `Transcript.Instructions.init(id:segments:toolDefinitions:)`.
    public init(
      id: String = UUID().uuidString, segments: [Segment], toolDefinitions: [ToolDefinition]
    ) {
      self.id = id
      self.segments = segments
      self.toolDefinitions = toolDefinitions
    }
  }
}
