extension LanguageModelSession {
  /// Token usage: of the session so far (`session.usage`), of one response (`Response.usage`,
  /// every round of a tool loop included) or of a response so far (`Snapshot.usage`).
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.Usage`. The counts are what the model's
  /// executor reported; the local model reports the rendered transcript's tokens as input (those
  /// found in its KV cache as cached) and the tokens it generated as output.
  public struct Usage: Sendable {
    public var input: Input
    public var output: Output
    /// Input and output tokens together.
    public var totalTokenCount: Int { input.totalTokenCount + output.totalTokenCount }
    public var metadata: [String: any Sendable & Codable & Equatable]

    public init(input: Input, output: Output, metadata: [String: any Sendable & Codable & Equatable] = [:]) {
      self.input = input
      self.output = output
      self.metadata = metadata
    }

    /// Matches FoundationModels 27 `LanguageModelSession.Usage.Input`.
    public struct Input: Sendable {
      /// Tokens the model read.
      public var totalTokenCount: Int
      /// Of those, the tokens served from a prompt (KV) cache.
      public var cachedTokenCount: Int

      public init(totalTokenCount: Int, cachedTokenCount: Int) {
        self.totalTokenCount = totalTokenCount
        self.cachedTokenCount = cachedTokenCount
      }
    }

    /// Matches FoundationModels 27 `LanguageModelSession.Usage.Output`.
    public struct Output: Sendable {
      /// Tokens the model wrote.
      public var totalTokenCount: Int
      /// Of those, the tokens spent on reasoning.
      public var reasoningTokenCount: Int

      public init(totalTokenCount: Int, reasoningTokenCount: Int) {
        self.totalTokenCount = totalTokenCount
        self.reasoningTokenCount = reasoningTokenCount
      }
    }

    static let zero = Usage(
      input: Input(totalTokenCount: 0, cachedTokenCount: 0), output: Output(totalTokenCount: 0, reasoningTokenCount: 0))

    /// This usage and one model invocation's.
    func adding(_ step: LanguageModelExecutorGenerationChannel.Usage) -> Usage {
      var sum = self
      sum.input.totalTokenCount += step.input.totalTokenCount
      sum.input.cachedTokenCount += step.input.cachedTokenCount
      sum.output.totalTokenCount += step.output.totalTokenCount
      sum.output.reasoningTokenCount += step.output.reasoningTokenCount
      return sum
    }

    /// This usage and another's counts (metadata keeps this one's).
    func adding(_ other: Usage) -> Usage {
      adding(
        LanguageModelExecutorGenerationChannel.Usage(
          input: .init(totalTokenCount: other.input.totalTokenCount, cachedTokenCount: other.input.cachedTokenCount),
          output: .init(
            totalTokenCount: other.output.totalTokenCount, reasoningTokenCount: other.output.reasoningTokenCount)))
    }
  }
}
