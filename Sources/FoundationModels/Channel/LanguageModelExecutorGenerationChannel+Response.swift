extension LanguageModelExecutorGenerationChannel {
  /// The model's visible answer: builds a `Transcript.Response` entry.
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.Response`. Events with
  /// the same `entryID` build one entry; a nil `entryID` continues the current response entry
  /// (or starts one). For structured requests the text is the JSON of the answer.
  public struct Response: Event {
    public var entryID: String?
    public var action: Action
    public var kind: EventKind { EventKind(value: .response) }

    /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.Response.Action`.
    @nonexhaustive
    public enum Action: Sendable {
      case appendText(TextFragment)
      case replaceTextSegment(TextSegmentReplacement)
      case updateCustomSegment(any Transcript.CustomSegment)
      case addAttachmentSegment(Transcript.AttachmentSegment)
      case removeAttachmentSegment(id: String)
      case updateMetadata(Metadata)
      case updateUsage(Usage)
    }
  }
}

extension LanguageModelExecutorGenerationChannel.Response.Action {
  /// Appends text to the segment `segmentID` (or to the entry's last text segment).
  public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Self {
    .appendText(.init(content: text, segmentID: segmentID, tokenCount: tokenCount))
  }

  /// Replaces the whole text of the segment `segmentID` (or of the entry's last text segment).
  public static func replaceTextSegment(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Self {
    .replaceTextSegment(.init(content: text, segmentID: segmentID, tokenCount: tokenCount))
  }

  /// Merges `values` into the entry's metadata.
  public static func updateMetadata(_ values: [String: any Sendable & Codable & Equatable]) -> Self {
    .updateMetadata(.init(values: values))
  }

  /// Reports this invocation's token usage so far.
  public static func updateUsage(
    input: LanguageModelExecutorGenerationChannel.Usage.Input,
    output: LanguageModelExecutorGenerationChannel.Usage.Output
  ) -> Self {
    .updateUsage(LanguageModelExecutorGenerationChannel.Usage(input: input, output: output))
  }
}

extension LanguageModelExecutorGenerationChannel.Event
where Self == LanguageModelExecutorGenerationChannel.Response {
  /// A response event.
  public static func response(entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.Response.Action)
    -> Self
  {
    LanguageModelExecutorGenerationChannel.Response(entryID: entryID, action: action)
  }
}
