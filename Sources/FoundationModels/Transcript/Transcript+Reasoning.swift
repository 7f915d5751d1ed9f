import Foundation

extension Transcript {
  /// The model's reasoning before an answer.
  ///
  /// Matches FoundationModels 27 `Transcript.Reasoning`. `signature` is an opaque value some
  /// providers return with their reasoning and need back unchanged on later turns; the session
  /// keeps it, and the transcript's `Codable` form carries it.
  public struct Reasoning: Sendable, Identifiable, Equatable {
    public var id: String
    public var segments: [Segment]
    public var signature: Data?
    public var metadata: [String: any Codable & Sendable & Equatable]

    public init(
      id: String = UUID().uuidString, metadata: [String: any Sendable & Codable & Equatable] = [:],
      segments: [Segment], signature: Data? = nil
    ) {
      self.id = id
      self.metadata = metadata
      self.segments = segments
      self.signature = signature
    }

    /// The reasoning's text.
    public var description: String {
      SegmentJoining.text(of: segments)
    }

    public static func == (lhs: Reasoning, rhs: Reasoning) -> Bool {
      lhs.id == rhs.id && lhs.segments == rhs.segments && lhs.signature == rhs.signature
        && metadataEqual(lhs.metadata, rhs.metadata)
    }
  }
}
