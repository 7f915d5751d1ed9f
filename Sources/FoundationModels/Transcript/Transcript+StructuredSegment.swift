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
    /// Matches FoundationModels `Transcript.StructuredSegment.init(id:source:content:)`
    /// (renamed `init(id:schemaName:content:)` in 27).
    public init(id: String = UUID().uuidString, source: String, content: GeneratedContent) {
      self.id = id
      self.source = source
      self.content = content
    }

    /// Creates a structured segment.
    ///
    /// Matches FoundationModels 27 `Transcript.StructuredSegment.init(id:schemaName:content:)`.
    public init(id: String = UUID().uuidString, schemaName: String, content: GeneratedContent) {
      self.init(id: id, source: schemaName, content: content)
    }

    /// The name of the content's type or schema; the same storage as ``source``.
    ///
    /// Matches FoundationModels 27 `Transcript.StructuredSegment.schemaName`.
    public var schemaName: String {
      get { source }
      set { source = newValue }
    }
  }
}
