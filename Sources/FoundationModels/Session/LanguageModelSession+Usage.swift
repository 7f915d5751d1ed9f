extension LanguageModelSession {
  /// Token counts and timings of one response. Our addition (Apple adds a `Usage` in 27).
  public struct Usage: Sendable, Equatable {
    /// Tokens of the whole rendered transcript fed to the model for this response.
    public var inputTokens: Int
    /// Input tokens found in the KV cache from earlier turns and not evaluated again.
    public var cachedInputTokens: Int
    /// Tokens generated.
    public var outputTokens: Int
    /// Seconds from the request to the first generated token.
    public var timeToFirstToken: Double
    /// Seconds spent generating after the first token.
    public var generationSeconds: Double
    /// Output tokens forced by a schema (emitted without sampling).
    public var forcedTokens: Int
    /// Guessed next tokens evaluated alongside sampled ones (speculative decoding, greedy guided
    /// generation), and how many of them the model confirmed.
    public var draftTokens: Int
    public var confirmedDraftTokens: Int

    public init(
      inputTokens: Int, cachedInputTokens: Int, outputTokens: Int, timeToFirstToken: Double,
      generationSeconds: Double, forcedTokens: Int = 0, draftTokens: Int = 0, confirmedDraftTokens: Int = 0
    ) {
      self.inputTokens = inputTokens
      self.cachedInputTokens = cachedInputTokens
      self.outputTokens = outputTokens
      self.timeToFirstToken = timeToFirstToken
      self.generationSeconds = generationSeconds
      self.forcedTokens = forcedTokens
      self.draftTokens = draftTokens
      self.confirmedDraftTokens = confirmedDraftTokens
    }

    /// Output tokens per second after the first one.
    public var tokensPerSecond: Double {
      generationSeconds > 0 && outputTokens > 1 ? Double(outputTokens - 1) / generationSeconds : 0
    }
  }
}
