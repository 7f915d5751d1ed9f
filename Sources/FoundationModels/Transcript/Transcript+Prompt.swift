import Foundation

extension Transcript {
  /// A prompt, with the options and response format it was sent with.
  ///
  /// Matches FoundationModels `Transcript.Prompt`.
  public struct Prompt: Sendable, Identifiable, Equatable {
    /// Matches FoundationModels `Transcript.Prompt.id`.
    public var id: String
    /// The prompt's content.
    public var segments: [Segment]
    /// The generation options of the request.
    public var options: GenerationOptions
    /// How the context was built for the request (27).
    public var contextOptions: ContextOptions
    /// The caller's metadata for the request (27).
    public var metadata: [String: any Codable & Sendable & Equatable]
    /// The requested structure of the response; `nil` for text.
    public var responseFormat: ResponseFormat?

    /// Creates a prompt entry.
    ///
    /// Matches FoundationModels `Transcript.Prompt.init(id:segments:options:responseFormat:)`.
    public init(
      id: String = UUID().uuidString, segments: [Segment],
      options: GenerationOptions = GenerationOptions(), responseFormat: ResponseFormat? = nil
    ) {
      self.init(id: id, metadata: [:], segments: segments, options: options, responseFormat: responseFormat)
    }

    /// Creates a prompt entry with context options and metadata.
    ///
    /// Matches FoundationModels 27
    /// `Transcript.Prompt.init(id:metadata:segments:options:responseFormat:contextOptions:)`.
    public init(
      id: String = UUID().uuidString, metadata: [String: any Codable & Sendable & Equatable] = [:],
      segments: [Segment], options: GenerationOptions = GenerationOptions(),
      responseFormat: ResponseFormat? = nil, contextOptions: ContextOptions = ContextOptions()
    ) {
      self.id = id
      self.metadata = metadata
      self.segments = segments
      self.options = options
      self.responseFormat = responseFormat
      self.contextOptions = contextOptions
    }

    public static func == (lhs: Prompt, rhs: Prompt) -> Bool {
      lhs.id == rhs.id && lhs.segments == rhs.segments && lhs.options == rhs.options
        && lhs.contextOptions == rhs.contextOptions && lhs.responseFormat == rhs.responseFormat
        && metadataEqual(lhs.metadata, rhs.metadata)
    }
  }
}
