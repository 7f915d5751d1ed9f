import Foundation

extension Transcript {
  /// A segment of text.
  ///
  /// Matches FoundationModels `Transcript.TextSegment`.
  public struct TextSegment: Sendable, Identifiable, Equatable {
    /// Matches FoundationModels `Transcript.TextSegment.id`.
    public var id: String
    /// The text.
    public var content: String

    /// Creates a text segment.
    ///
    /// Matches FoundationModels `Transcript.TextSegment.init(id:content:)`.
    public init(id: String = UUID().uuidString, content: String) {
      self.id = id
      self.content = content
    }
  }
}
