/// One generation: the whole prompt (the engine reuses what its cache already holds), how to
/// sample, and when to stop.
public struct GenerationRequest: Sendable {
  public var promptTokens: [Token]
  /// Positions in `promptTokens` where a part that other prompts share ends, such as the
  /// system turn (instructions and tools): the prompt is evaluated part by part, so that a new
  /// session that shares the part reuses it from a kept cache (see `PartBoundaries`).
  public var promptBoundaries: [Int]
  public var sampling: SamplingParameters
  /// The most tokens to generate; nil means until the end of the turn or the context.
  public var maximumTokens: Int?
  public var constraint: (any TokenConstraint)?
  /// Control tokens whose text the output shows: the markers of tool calls and thinking that a
  /// vocabulary has as control tokens (Mistral's `[TOOL_CALLS]`, `[THINK]`), which the output's
  /// readers look for; other control tokens show nothing.
  public var shownControlTokens: [Token: [UInt8]]
  /// Whether to report log probabilities (`GenerationEvent.logProbabilities`), and how; nil
  /// reports none.
  public var logProbabilities: LogProbabilities?
  /// Whether tokens are guessed ahead for the model to confirm (speculative decoding); it
  /// changes the cost of the output, never the output's distribution.
  ///
  /// A request that reports log probabilities does not speculate (each token's come from its own pass).
  public var speculation: Speculation

  /// What a request reports of its tokens' log probabilities (see `TokenLogProbability`).
  ///
  /// A request without a constraint only: each of its tokens is then chosen from the model's
  /// logits, and none is forced.
  public struct LogProbabilities: Sendable, Equatable {
    /// The most likely tokens reported with each token, most likely first (0 for none).
    public var alternatives: Int
    /// Whether the prompt's tokens are reported too (`GenerationEvent.promptLogProbabilities`).
    ///
    /// Their logits come from evaluating the whole prompt again, a few tokens a decode (no
    /// cached prefix has logits to give), so it costs one decode per `DecodeSteps.scoringWidth`
    /// prompt tokens. Such a request may also generate nothing (`maximumTokens` 0).
    public var includesPrompt: Bool

    public init(alternatives: Int, includesPrompt: Bool = false) {
      self.alternatives = alternatives
      self.includesPrompt = includesPrompt
    }
  }

  public init(
    promptTokens: [Token], promptBoundaries: [Int] = [], sampling: SamplingParameters = .greedy,
    maximumTokens: Int? = nil, constraint: (any TokenConstraint)? = nil, shownControlTokens: [Token: [UInt8]] = [:],
    logProbabilities: LogProbabilities? = nil, speculation: Speculation = .lookup
  ) {
    self.promptTokens = promptTokens
    self.promptBoundaries = promptBoundaries
    self.sampling = sampling
    self.maximumTokens = maximumTokens
    self.constraint = constraint
    self.shownControlTokens = shownControlTokens
    self.logProbabilities = logProbabilities
    self.speculation = speculation
  }
}

/// What a generation reports as it runs.
public enum GenerationEvent: Sendable, Equatable {
  /// New text (never half a UTF-8 sequence).
  case text(String)
  /// The log probabilities of the tokens generated since the last such event, in order, sent
  /// before their text (requests with `logProbabilities` only).
  case logProbabilities([TokenLogProbability])
  /// The log probabilities of the prompt's tokens, the first without one, sent before anything
  /// generated (requests whose `logProbabilities` include the prompt only).
  case promptLogProbabilities([TokenLogProbability])
  /// The generation ended; always the last event of a stream that did not throw.
  case finished(GenerationSummary)
}

/// Why a generation stopped.
public enum StopReason: String, Sendable, Equatable {
  /// The model ended its turn (end-of-turn or end-of-sequence token).
  case endOfTurn
  /// `maximumTokens` were generated.
  case maximumTokens
  /// The context window is full.
  case contextFull
  /// A constraint's output is complete and admits nothing more.
  case constraintComplete
}

/// How a generation went: counts, timings and the stop reason.
public struct GenerationSummary: Sendable, Equatable {
  public var stopReason: StopReason
  public var usage: GenerationUsage
  /// The generated tokens, forced ones included, end-of-turn token excluded.
  public var tokens: [Token]
}

/// Token counts and timings of one generation.
public struct GenerationUsage: Sendable, Equatable {
  /// Tokens in the prompt.
  public var promptTokens = 0
  /// Prompt tokens found in the cache and not evaluated again.
  public var cachedPromptTokens = 0
  /// Prompt tokens evaluated in this request.
  public var evaluatedPromptTokens: Int { promptTokens - cachedPromptTokens }
  /// Tokens generated, forced ones included.
  public var generatedTokens = 0
  /// Generated tokens that a constraint forced (no sampling).
  public var forcedTokens = 0
  /// Tokens evaluated as guesses of what comes next (speculative decoding), and how many of
  /// them the model confirmed (each saved a forward pass).
  public var draftTokens = 0
  public var confirmedDraftTokens = 0
  /// Seconds spent evaluating the prompt.
  public var prefillSeconds = 0.0
  /// Seconds from the start of the request to the first generated token.
  public var timeToFirstTokenSeconds = 0.0
  /// Seconds spent generating after the first token.
  public var decodeSeconds = 0.0

  public init() {}

  /// Prompt tokens evaluated per second.
  public var prefillTokensPerSecond: Double {
    prefillSeconds > 0 ? Double(evaluatedPromptTokens) / prefillSeconds : 0
  }

  /// Tokens generated per second after the first one.
  public var decodeTokensPerSecond: Double {
    decodeSeconds > 0 && generatedTokens > 1 ? Double(generatedTokens - 1) / decodeSeconds : 0
  }
}
