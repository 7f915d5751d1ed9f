import Foundation

extension Transcript {
  /// A response from the model.
  ///
  /// Matches FoundationModels `Transcript.Response`.
  public struct Response: Sendable, Identifiable, Equatable {
    /// Matches FoundationModels `Transcript.Response.id`.
    public var id: String
    /// Identifiers of the model assets that produced the response.
    public var assetIDs: [String]
    /// The response's content.
    public var segments: [Segment]
    /// Metadata the model's executor attached (27).
    ///
    /// Read-only, as in Apple's SDK: set it with `init(id:metadata:segments:)` or from an
    /// executor's `updateMetadata`.
    public var metadata: [String: any Codable & Sendable & Equatable] { storedMetadata }
    var storedMetadata: [String: any Codable & Sendable & Equatable]

    /// Creates a response entry.
    ///
    /// Matches FoundationModels `Transcript.Response.init(id:assetIDs:segments:)`.
    public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Segment]) {
      self.id = id
      self.assetIDs = assetIDs
      self.segments = segments
      storedMetadata = [:]
    }

    /// Creates a response entry with metadata.
    ///
    /// Matches FoundationModels 27 `Transcript.Response.init(id:metadata:segments:)`. Asset ids
    /// come from `metadata["assetIDs"]` when it holds strings.
    public init(
      id: String = UUID().uuidString, metadata: [String: any Sendable & Codable & Equatable] = [:],
      segments: [Segment]
    ) {
      self.id = id
      assetIDs = metadata["assetIDs"] as? [String] ?? []
      self.segments = segments
      storedMetadata = metadata
    }

    public static func == (lhs: Response, rhs: Response) -> Bool {
      lhs.id == rhs.id && lhs.assetIDs == rhs.assetIDs && lhs.segments == rhs.segments
        && metadataEqual(lhs.storedMetadata, rhs.storedMetadata)
    }
  }
}
