import Foundation

extension LanguageModelExecutorGenerationChannel {
  /// Metadata an executor attaches to the entry an event belongs to.
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.Metadata` (made with
  /// the `updateMetadata(_:)` factories). The session merges each update into the entry's
  /// metadata: a key sent again replaces its value.
  public struct Metadata: Sendable {
    public var values: [String: any Sendable & Codable & Equatable]
  }

  /// Token usage of one model invocation.
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.Usage`. An update
  /// reports the invocation's totals so far (a later update replaces an earlier one); the session
  /// adds the invocations of a tool loop together.
  public struct Usage: Sendable {
    public var input: Input
    public var output: Output

    public init(input: Input, output: Output) {
      self.input = input
      self.output = output
    }

    /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.Usage.Input`.
    public struct Input: Sendable {
      /// Tokens the model read, cached ones included.
      public var totalTokenCount: Int
      /// Input tokens served from a prompt (KV) cache.
      public var cachedTokenCount: Int

      public init(totalTokenCount: Int, cachedTokenCount: Int) {
        self.totalTokenCount = totalTokenCount
        self.cachedTokenCount = cachedTokenCount
      }
    }

    /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.Usage.Output`.
    public struct Output: Sendable {
      /// Tokens the model wrote, reasoning included.
      public var totalTokenCount: Int
      /// Output tokens spent on reasoning.
      public var reasoningTokenCount: Int

      public init(totalTokenCount: Int, reasoningTokenCount: Int) {
        self.totalTokenCount = totalTokenCount
        self.reasoningTokenCount = reasoningTokenCount
      }
    }
  }

  /// Text to append to a segment (made with the `appendText(_:segmentID:tokenCount:)` factories).
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.TextFragment`.
  public struct TextFragment: Sendable {
    public var content: String
    /// The segment the text belongs to; nil continues the entry's last text segment.
    public var segmentID: String?
    /// Tokens the text represents (0 when unknown).
    public var tokenCount: Int
  }

  /// The whole new text of a segment (made with `replaceTextSegment(_:segmentID:tokenCount:)`).
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.TextSegmentReplacement`.
  public struct TextSegmentReplacement: Sendable {
    public var content: String
    public var segmentID: String?
    public var tokenCount: Int
  }

  /// An opaque signature of reasoning that a provider needs back unchanged on later turns.
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.ReasoningSignature`.
  public struct ReasoningSignature: Sendable {
    public var signature: Data
    public var tokenCount: Int
  }
}
