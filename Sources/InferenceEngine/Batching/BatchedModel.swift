/// A model whose sessions share one llama.cpp context of `configuration.slots` sequences,
/// decoded together: continuous batching, for a server that runs many requests at once.
///
/// An `InferenceSession` on it works as on its `LlamaModel` (the same `DecodeSteps`,
/// constraints, jump-forward, healing, drafts, cancellation and prefix reuse), but its
/// evaluations go to a `BatchScheduler` that puts every running sequence's next tokens and
/// chunks of waiting prompts into one `llama_decode`; N streams cost far less than N separate
/// contexts, each reading all the weights for one token. A request runs on a slot
/// (`SlotTable` chooses which) and waits when every slot is busy, or is refused when the
/// configuration's queue is full (`SlotPool`).
///
/// Batched logits are not bit-identical to a single sequence's: llama.cpp's kernels round a
/// row differently with other rows beside it, so greedy text can differ from the
/// single-context path on a near tie. The default path stays the single context per session.
///
/// Memory: one cache of `slots × contextSize` tokens (`LlamaModel.keyValueCacheBytes`), made
/// when the model is created, plus a vocabulary of logits per output per session.
public final class BatchedModel: TokenModel, Sendable {
  public let model: LlamaModel
  public let configuration: BatchingConfiguration
  let scheduler: BatchScheduler
  let slots: SlotPool
  /// The shared context's attention kernel (`AttentionKernel`).
  let attentionKernel: AttentionKernel
  /// What a slot's decodes cost by their rows while it runs alone, shared with the model's
  /// other contexts of the same threads and kernel (`DecodeCosts`).
  let decodeCosts: DecodeCosts

  /// Creates the shared context on `model`.
  /// - Throws: `EngineError.Code.contextCreationFailed` when the configuration is out of range
  ///   or llama.cpp cannot create the context.
  public init(model: LlamaModel, configuration: BatchingConfiguration) throws {
    let context = configuration.context
    // llama.cpp takes at most 256 sequences (LLAMA_MAX_SEQ).
    guard configuration.slots >= 1, configuration.slots <= 256 else {
      throw EngineError(.contextCreationFailed, "slots must be between 1 and 256, not \(configuration.slots)")
    }
    guard context.contextSize >= 1, context.contextSize <= model.trainedContextLength else {
      throw EngineError(
        .contextCreationFailed,
        "context size \(context.contextSize) must be between 1 and the model's trained context (\(model.trainedContextLength))"
      )
    }
    // Each decode must hold any one evaluation's outputs (see `BatchPlan`).
    guard context.batchSize >= Self.maximumOutputs, context.threads >= 1 else {
      throw EngineError(
        .contextCreationFailed,
        "a batched context needs batchSize of at least \(Self.maximumOutputs) (not \(context.batchSize)) and threads of at least 1 (not \(context.threads))"
      )
    }
    guard (configuration.queueLimit ?? 0) >= 0 else {
      throw EngineError(.contextCreationFailed, "queueLimit must not be negative, not \(configuration.queueLimit ?? 0)")
    }
    self.model = model
    self.configuration = configuration
    let operations = CacheOperations()
    // As many tokens as the budget's bytes hold at the cache's size per token.
    let bytesPerToken = max(model.keyValueCacheBytes(contextSize: 1), 1)
    let slots = SlotPool(
      count: configuration.slots, queueLimit: configuration.queueLimit,
      savedTokenLimit: max(configuration.savedCacheBytes, 0) / bytesPerToken, operations: operations)
    self.slots = slots
    let decoder = try LlamaBatchDecoder(model: model, configuration: configuration)
    attentionKernel = decoder.attentionKernel
    decodeCosts = model.decodeCosts(threads: context.threads, kernel: decoder.attentionKernel)
    scheduler = BatchScheduler(decoder: decoder, operations: operations) { slots.busyCount }
  }

  deinit {
    scheduler.stop()
  }

  /// The most logits one evaluation returns, as for every backend.
  static var maximumOutputs: Int { BatchedSlotBackend.maximumOutputs }

  /// What the scheduler has done so far: decodes run, evaluations and tokens they held.
  public var statistics: BatchStatistics { scheduler.statistics }

  /// Slots running a request now.
  public var busySlots: Int { slots.busyCount }

  /// Requests waiting for a free slot now.
  public var waitingRequests: Int { slots.waitingCount }

  public var vocabularySize: Int { model.vocabularySize }
  public var trainedContextLength: Int { model.trainedContextLength }
  public var chatTemplate: ChatTemplate? { model.chatTemplate }
  public var controlTokens: ControlTokens { model.controlTokens }
  public func makeChatTemplate(source: String) throws -> ChatTemplate { try model.makeChatTemplate(source: source) }

  public func tokenize(_ text: String, parseSpecial: Bool) -> [Token] {
    model.tokenize(text, parseSpecial: parseSpecial)
  }

  public func tokenize(_ prompt: RenderedPrompt) -> [Token] { model.tokenize(prompt) }

  public func piece(of token: Token) -> [UInt8] { model.piece(of: token) }

  public func isEndOfGeneration(_ token: Token) -> Bool { model.isEndOfGeneration(token) }

  public var beginningOfSequence: Token? { model.beginningOfSequence }

  /// A session's backend on the shared context.
  /// - Parameter configuration: its `contextSize` may be at most a slot's, and is the
  ///   session's limit; `batchSize` and `threads` must be the batching configuration's, since
  ///   the slots share its decodes.
  /// - Throws: `EngineError.Code.contextCreationFailed` naming the setting that differs.
  public func makeBackend(_ configuration: ContextConfiguration) throws -> any TokenBackend {
    let shared = self.configuration.context
    guard configuration.batchSize == shared.batchSize, configuration.threads == shared.threads else {
      throw EngineError(
        .contextCreationFailed,
        "a batched model's sessions share its decodes: batchSize \(configuration.batchSize) and threads \(configuration.threads) must be its \(shared.batchSize) and \(shared.threads)"
      )
    }
    guard configuration.contextSize >= 1, configuration.contextSize <= shared.contextSize else {
      throw EngineError(
        .contextCreationFailed,
        "context size \(configuration.contextSize) does not fit a slot of \(shared.contextSize) tokens")
    }
    return BatchedSlotBackend(owner: self, contextLength: configuration.contextSize)
  }
}
