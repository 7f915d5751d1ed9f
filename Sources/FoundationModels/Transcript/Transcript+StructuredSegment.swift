import Foundation

extension Transcript {
  /// A segment of structured content.
  ///
  /// Matches FoundationModels `Transcript.StructuredSegment`.
  public struct StructuredSegment: Sendable, Identifiable, Equatable {
    /// Matches FoundationModels `Transcript.StructuredSegment.id`.
    public var id: String
    /// Where the content came from: the name of its type or schema.
    public var source: String
    /// The content.
    public var content: GeneratedContent

    /// Creates a structured segment.
    ///
    /// Matches FoundationModels `Transcript.StructuredSegment.init(id:source:content:)`.
    public init(id: String = UUID().uuidString, source: String, content: GeneratedContent) {
      self.id = id
      self.source = source
      self.content = content
    }
  }
}
