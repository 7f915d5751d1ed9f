import Foundation

extension LanguageModelExecutorGenerationChannel {
  /// The model's thinking: builds a `Transcript.Reasoning` entry.
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.Reasoning`.
  public struct Reasoning: Event {
    public var entryID: String?
    public var action: Action
    public var kind: EventKind { EventKind(value: .reasoning) }

    /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.Reasoning.Action`.
    @nonexhaustive
    public enum Action: Sendable {
      case appendText(TextFragment)
      case replaceTextSegment(TextSegmentReplacement)
      case updateSignature(ReasoningSignature)
      case updateMetadata(Metadata)
      case updateUsage(Usage)
    }
  }
}

extension LanguageModelExecutorGenerationChannel.Reasoning.Action {
  /// Appends text to the segment `segmentID` (or to the entry's last text segment).
  public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Self {
    .appendText(.init(content: text, segmentID: segmentID, tokenCount: tokenCount))
  }

  /// Replaces the whole text of the segment `segmentID` (or of the entry's last text segment).
  public static func replaceTextSegment(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Self {
    .replaceTextSegment(.init(content: text, segmentID: segmentID, tokenCount: tokenCount))
  }

  /// Sets the reasoning's signature, which goes back to the provider unchanged on later turns.
  public static func updateSignature(_ signature: Data, tokenCount: Int) -> Self {
    .updateSignature(.init(signature: signature, tokenCount: tokenCount))
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
where Self == LanguageModelExecutorGenerationChannel.Reasoning {
  /// A reasoning event.
  public static func reasoning(
    entryID: String? = nil, action: LanguageModelExecutorGenerationChannel.Reasoning.Action
  ) -> Self {
    LanguageModelExecutorGenerationChannel.Reasoning(entryID: entryID, action: action)
  }
}
