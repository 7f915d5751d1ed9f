extension Transcript {
  /// A part of an entry's content: text, structured content, an attachment, or an app-defined
  /// segment.
  ///
  /// Matches FoundationModels `Transcript.Segment` (27: `attachment`, `custom`).
  @nonexhaustive
  public enum Segment: Sendable, Identifiable, Equatable, CustomStringConvertible {
    /// Text.
    case text(TextSegment)
    /// Structured content, as generated for a `Generable` type.
    case structure(StructuredSegment)
    /// An attachment, such as an image.
    case attachment(AttachmentSegment)
    /// An app-defined segment.
    case custom(any CustomSegment)

    /// The id of the segment's payload.
    ///
    /// Matches FoundationModels `Transcript.Segment.id`.
    public var id: String {
      switch self {
      case .text(let text): return text.id
      case .structure(let structure): return structure.id
      case .attachment(let attachment): return attachment.id
      case .custom(let custom): return custom.id
      }
    }

    /// The segment's text.
    public var description: String { renderedText }

    public static func == (lhs: Segment, rhs: Segment) -> Bool {
      switch (lhs, rhs) {
      case (.text(let left), .text(let right)): left == right
      case (.structure(let left), .structure(let right)): left == right
      case (.attachment(let left), .attachment(let right)): left == right
      case (.custom(let left), .custom(let right)): left.isEqual(to: right)
      default: false
      }
    }
  }
}
