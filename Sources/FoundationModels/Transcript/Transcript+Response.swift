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

    /// Creates a response entry.
    ///
    /// Matches FoundationModels `Transcript.Response.init(id:assetIDs:segments:)`.
    public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Segment]) {
      self.id = id
      self.assetIDs = assetIDs
      self.segments = segments
    }
  }
}
