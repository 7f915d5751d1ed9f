/// What the local model reports about one model invocation beyond the token usage: its timings
/// and the tokens guided generation did not sample. Our addition.
///
/// `SystemLanguageModel`'s executor sends these as the response entry's metadata (other models
/// may not), so they travel through the public channel like any provider's metadata:
///
/// ```swift
/// let response = try await session.respond(to: "Hello")
/// if let figures = LocalModelFigures(response.transcriptEntries) { print(figures.timeToFirstToken) }
/// ```
public struct LocalModelFigures: Sendable, Equatable {
  /// Seconds from the request to the first generated token (prompt evaluation included).
  public var timeToFirstToken: Double
  /// Seconds spent generating after the first token.
  public var generationSeconds: Double
  /// Output tokens forced by a schema (emitted without sampling).
  public var forcedTokens: Int
  /// Guessed next tokens evaluated alongside sampled ones (speculative decoding in greedy
  /// guided generation), and how many of them the model confirmed.
  public var draftTokens: Int
  public var confirmedDraftTokens: Int
  /// Whether generation stopped because `maximumResponseTokens` were generated, rather than
  /// because the model ended its turn or the schema's output was complete (what an OpenAI
  /// server reports as `finish_reason` `length`).
  public var reachedMaximumTokens: Bool

  public init(
    timeToFirstToken: Double, generationSeconds: Double, forcedTokens: Int = 0, draftTokens: Int = 0,
    confirmedDraftTokens: Int = 0, reachedMaximumTokens: Bool = false
  ) {
    self.timeToFirstToken = timeToFirstToken
    self.generationSeconds = generationSeconds
    self.forcedTokens = forcedTokens
    self.draftTokens = draftTokens
    self.confirmedDraftTokens = confirmedDraftTokens
    self.reachedMaximumTokens = reachedMaximumTokens
  }

  private enum Key {
    static let timeToFirstToken = "timeToFirstTokenSeconds"
    static let generationSeconds = "generationSeconds"
    static let forcedTokens = "forcedTokens"
    static let draftTokens = "draftTokens"
    static let confirmedDraftTokens = "confirmedDraftTokens"
    static let reachedMaximumTokens = "reachedMaximumTokens"
  }

  /// The figures as response metadata.
  var metadata: [String: any Sendable & Codable & Equatable] {
    [
      Key.timeToFirstToken: timeToFirstToken, Key.generationSeconds: generationSeconds,
      Key.forcedTokens: forcedTokens, Key.draftTokens: draftTokens, Key.confirmedDraftTokens: confirmedDraftTokens,
      Key.reachedMaximumTokens: reachedMaximumTokens,
    ]
  }

  /// The figures of a response entry, when the local model produced it.
  public init?(_ response: Transcript.Response) {
    self.init(metadata: response.metadata)
  }

  /// The figures in an executor's metadata values (the `updateMetadata` of a response event).
  init?(metadata: [String: any Sendable & Codable & Equatable]) {
    guard let timeToFirstToken = metadata[Key.timeToFirstToken] as? Double,
      let generationSeconds = metadata[Key.generationSeconds] as? Double
    else { return nil }
    self.init(
      timeToFirstToken: timeToFirstToken, generationSeconds: generationSeconds,
      forcedTokens: metadata[Key.forcedTokens] as? Int ?? 0, draftTokens: metadata[Key.draftTokens] as? Int ?? 0,
      confirmedDraftTokens: metadata[Key.confirmedDraftTokens] as? Int ?? 0,
      reachedMaximumTokens: metadata[Key.reachedMaximumTokens] as? Bool ?? false)
  }

  /// The figures of the last response among `entries` (a turn's `transcriptEntries`).
  public init?(_ entries: some Collection<Transcript.Entry>) {
    guard
      case .response(let response)? = entries.reversed().first(where: { if case .response = $0 { true } else { false } }
      )
    else { return nil }
    self.init(response)
  }

  /// Output tokens per second after the first one, for `outputTokens` generated.
  public func tokensPerSecond(outputTokens: Int) -> Double {
    generationSeconds > 0 && outputTokens > 1 ? Double(outputTokens - 1) / generationSeconds : 0
  }
}
