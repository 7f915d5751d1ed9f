import Foundation

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
