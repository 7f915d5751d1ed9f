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
    /// The requested structure of the response; `nil` for text.
    public var responseFormat: ResponseFormat?

    /// Creates a prompt entry.
    ///
    /// Matches FoundationModels `Transcript.Prompt.init(id:segments:options:responseFormat:)`.
    public init(
      id: String = UUID().uuidString, segments: [Segment],
      options: GenerationOptions = GenerationOptions(), responseFormat: ResponseFormat? = nil
    ) {
      self.id = id
      self.segments = segments
      self.options = options
      self.responseFormat = responseFormat
    }
  }
}
