extension Transcript {
  /// A part of an entry's content: text, or structured content.
  ///
  /// Matches FoundationModels `Transcript.Segment`.
  public enum Segment: Sendable, Identifiable, Equatable {
    /// Text.
    case text(TextSegment)
    /// Structured content, as generated for a `Generable` type.
    case structure(StructuredSegment)

    /// The id of the segment's payload.
    ///
    /// Matches FoundationModels `Transcript.Segment.id`.
    public var id: String {
      switch self {
      case .text(let text): return text.id
      case .structure(let structure): return structure.id
      }
    }
  }
}
