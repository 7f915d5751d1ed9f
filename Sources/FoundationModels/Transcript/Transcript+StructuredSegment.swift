import Foundation

extension Transcript {
  /// A segment of structured content.
  ///
  /// Matches FoundationModels `Transcript.StructuredSegment`.
  public struct StructuredSegment: Sendable, Identifiable, Equatable {
    /// Matches FoundationModels `Transcript.StructuredSegment.id`.
    public var id: String
    /// The name of the content's type or schema.
    ///
    /// Matches FoundationModels 27 `Transcript.StructuredSegment.schemaName`.
    public var schemaName: String
    /// The content.
    public var content: GeneratedContent

    /// Creates a structured segment.
    ///
    /// Matches FoundationModels 27 `Transcript.StructuredSegment.init(id:schemaName:content:)`.
    public init(id: String = UUID().uuidString, schemaName: String, content: GeneratedContent) {
      self.id = id
      self.schemaName = schemaName
      self.content = content
    }

    /// Creates a structured segment, by the 26 name of its schema name.
    ///
    /// Matches FoundationModels `Transcript.StructuredSegment.init(id:source:content:)`,
    /// deprecated in 27.
    @available(*, deprecated, renamed: "init(id:schemaName:content:)")
    public init(id: String = UUID().uuidString, source: String, content: GeneratedContent) {
      self.init(id: id, schemaName: source, content: content)
    }

    /// The name of the content's type or schema, by its 26 name; the same storage as
    /// ``schemaName``.
    ///
    /// Matches FoundationModels `Transcript.StructuredSegment.source`, deprecated in 27.
    @available(*, deprecated, renamed: "schemaName")
    public var source: String {
      get { schemaName }
      set { schemaName = newValue }
    }
  }
}
