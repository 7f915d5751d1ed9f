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

    public init(
      inputTokens: Int, cachedInputTokens: Int, outputTokens: Int, timeToFirstToken: Double,
      generationSeconds: Double
    ) {
      self.inputTokens = inputTokens
      self.cachedInputTokens = cachedInputTokens
      self.outputTokens = outputTokens
      self.timeToFirstToken = timeToFirstToken
      self.generationSeconds = generationSeconds
    }

    /// Output tokens per second after the first one.
    public var tokensPerSecond: Double {
      generationSeconds > 0 && outputTokens > 1 ? Double(outputTokens - 1) / generationSeconds : 0
    }
  }
}
