import Foundation

/// One conversation's worth of engine: a context on a shared model, its key/value cache, and
/// a serial work queue on which every call into the context runs.
///
/// Requests are served one at a time in order. Each keeps the prompt prefix that is already in
/// the cache and evaluates only the rest, so a chat turn costs its new tokens, not the history.
public final class InferenceSession: Sendable {
  public let model: any TokenModel
  public let configuration: ContextConfiguration
  private let queue = WorkQueue(label: "InferenceSession")
  private let state: BackendSlot
  /// Tokens generated so far by the running request.
  public let progress = GenerationProgress()

  /// Creates a session; the context itself is created by the first request, so a session that
  /// is never used costs nothing.
  public init(model: any TokenModel, configuration: ContextConfiguration = ContextConfiguration()) {
    self.model = model
    self.configuration = configuration
    state = BackendSlot(model: model, configuration: configuration, draftModel: nil)
  }

  /// The settings of a draft model's context in a session of `contextSize` tokens: the
  /// session's size, with threads of its own (a batched session's shared decode threads are
  /// not the draft model's).
  public static func draftConfiguration(contextSize: Int) -> ContextConfiguration {
    ContextConfiguration(contextSize: contextSize)
  }

  /// A session whose requests may speculate with `draftModel` (`Speculation.draft`): a smaller
  /// model with the same vocabulary, on a context of its own with `configuration`'s size,
  /// made by the first request that drafts with it.
  /// - Throws: `EngineError.Code.invalidRequest` when the draft model's tokens are not
  ///   `model`'s, one for one.
  public init(
    model: any TokenModel, configuration: ContextConfiguration = ContextConfiguration(), draftModel: any TokenModel
  )
    throws
  {
    try ModelDrafter.checkVocabulary(of: draftModel, against: model)
    self.model = model
    self.configuration = configuration
    state = BackendSlot(model: model, configuration: configuration, draftModel: draftModel)
  }

  /// Ends the session's backend once the work before it is done, so that its context is back
  /// with the model (and its cache there for the next session) when the session is gone.
  ///
  /// Why: the last job's closure may outlive the awaited result by a moment, and an app that opens
  /// the next session at once would otherwise find no context kept and evaluate everything.
  deinit {
    let state = state
    queue.runAndWait { state.release() }
  }

  /// Generates a reply to `request.promptTokens`, streaming text as it is decoded.
  ///
  /// Cancelling the consuming task (or dropping the stream) stops decoding within a token, or
  /// within one batch during a long prefill; the cache stays consistent for the next request.
  public func generate(_ request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: GenerationEvent.self)
    let cancellation = CancellationFlag()
    continuation.onTermination = { _ in cancellation.cancel() }
    let state = state
    let progress = progress
    queue.start {
      do {
        progress.reset()
        let generator = Generator(
          model: state.model, backend: try state.backend(),
          drafter: request.speculation == .draft ? try state.drafter() : nil)
        let summary = try generator.run(request, cancellation: cancellation, progress: progress) { event in
          if event != .text("") { continuation.yield(event) }
        }
        continuation.yield(.finished(summary))
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    return stream
  }

  /// Evaluates `tokens` into the cache ahead of a request (prewarm), keeping any cached prefix.
  /// - Parameter boundaries: where parts of `tokens` end (`GenerationRequest.promptBoundaries`):
  ///   each is evaluated as the request will evaluate it, the rest in one batch.
  /// - Returns: how many tokens were evaluated.
  @discardableResult
  public func prefill(_ tokens: [Token], boundaries: [Int] = []) async throws -> Int {
    let state = state
    return try await queue.run {
      let backend = try state.backend()
      guard tokens.count <= backend.contextLength else {
        throw EngineError(.promptTooLong, "\(tokens.count) tokens do not fit the context of \(backend.contextLength)")
      }
      let flag = CancellationFlag()
      try backend.beginRequest(prompt: tokens, cancellation: flag)
      defer { backend.endRequest() }
      // Planned as a prompt that goes on after `tokens` (with tokens no cache holds), so that a
      // part ending where `tokens` end is a part.
      let plan = DecodeSteps.promptPlan(
        prompt: tokens + [-1, -1], boundaries: boundaries, cachedTokens: backend.cachedTokens,
        cachedBoundaries: backend.partBoundaries)
      backend.truncateCache(to: plan.reused)
      for part in plan.parts where part.endsPart && boundaries.contains(part.range.upperBound) {
        _ = try backend.evaluate(tokens[part.range], cancellation: flag)
        backend.markPartBoundary()
      }
      let start = backend.cachedTokens.count
      if start < tokens.count { _ = try backend.evaluate(tokens[start...], cancellation: flag) }
      return tokens.count - plan.reused
    }
  }

  /// The tokens the cache holds now.
  public func cachedTokens() async throws -> [Token] {
    let state = state
    return try await queue.run { try state.backend().cachedTokens }
  }

  /// Empties the cache, so the next request evaluates its whole prompt.
  public func clearCache() async throws {
    let state = state
    try await queue.run { try state.backend().truncateCache(to: 0) }
  }
}

/// Holds a session's backend, created on first use.
///
/// Touched only on the session's work queue, which is what makes the unchecked `Sendable` sound.
private final class BackendSlot: @unchecked Sendable {
  let model: any TokenModel
  let configuration: ContextConfiguration
  let draftModel: (any TokenModel)?
  private var created: (any TokenBackend)?
  private var createdDrafter: ModelDrafter?

  init(model: any TokenModel, configuration: ContextConfiguration, draftModel: (any TokenModel)?) {
    self.model = model
    self.configuration = configuration
    self.draftModel = draftModel
  }

  /// Lets go of the backends (their contexts go back to their models' pools).
  func release() {
    created = nil
    createdDrafter = nil
  }

  /// The draft model on a context of the session's size (its own threads, not a shared
  /// decode's), or nil when the session has none.
  func drafter() throws -> ModelDrafter? {
    guard let draftModel else { return nil }
    if let createdDrafter { return createdDrafter }
    let drafter = try ModelDrafter(
      model: draftModel, configuration: InferenceSession.draftConfiguration(contextSize: configuration.contextSize))
    createdDrafter = drafter
    return drafter
  }

  func backend() throws -> any TokenBackend {
    if let created { return created }
    let backend = try model.makeBackend(configuration)
    created = backend
    return backend
  }
}
