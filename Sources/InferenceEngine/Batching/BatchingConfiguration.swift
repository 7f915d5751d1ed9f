/// Settings for a `BatchedModel`: how many sequences share its context, each one's size, and
/// how many requests may wait for one.
public struct BatchingConfiguration: Sendable, Equatable {
  /// Sequences (slots) decoded together: the most requests that run at once.
  public var slots: Int
  /// Each slot's context size; `batchSize` is the token budget of one decode, all slots
  /// together (see `BatchPlan`), and `threads` decode for all of them.
  public var context: ContextConfiguration
  /// The most requests that wait for a slot while every slot is busy; a request past them is
  /// refused at once with `EngineError.Code.queueFull`. Nil: requests always wait.
  public var queueLimit: Int?
  /// The most bytes of host memory that keep the caches of slots taken for other conversations
  /// (`SlotTable`), so that a conversation whose slot was lent evaluates only its new input when
  /// it comes back; 0 keeps none. By default 2 GiB, as much as 2 GiB of KV cache holds (llama-server
  /// keeps 8 GiB by default).
  public var savedCacheBytes: Int
  /// 2 GiB.
  public static let defaultSavedCacheBytes = 2 << 30

  public init(
    slots: Int, context: ContextConfiguration = ContextConfiguration(), queueLimit: Int? = nil,
    savedCacheBytes: Int = defaultSavedCacheBytes
  ) {
    self.slots = slots
    self.context = context
    self.queueLimit = queueLimit
    self.savedCacheBytes = savedCacheBytes
  }
}

/// What a `BatchedModel`'s scheduler has done since it started: the decodes it ran and the
/// work of all sequences they held.
public struct BatchStatistics: Sendable, Equatable {
  /// `llama_decode` calls.
  public var decodes = 0
  /// Evaluations finished (each a step of one sequence: a prompt, or its next tokens).
  public var evaluations = 0
  /// Tokens decoded, all sequences together.
  public var tokens = 0
  /// The most sequences one decode held.
  public var widestDecode = 0
  /// Sequences held, summed over the decodes: over `decodes`, how full a decode is on average.
  public var sequences = 0
  /// Slots that took a new conversation with another slot's cached prefix copied in
  /// (`SlotTable.Taken.copiedFrom`) instead of evaluating it.
  public var cacheCopies = 0
  /// Slots' caches kept in host memory when the slot was taken for another conversation, and
  /// kept caches restored into a slot for a conversation that came back (`SlotTable.saved`).
  public var savedCaches = 0
  public var restoredCaches = 0
  /// Seconds spent in `llama_decode`.
  public var decodeSeconds = 0.0
  /// Tokens finished requests drafted (speculative decoding) and those of them the model
  /// confirmed (`GenerationUsage.draftTokens`).
  public var draftTokens = 0
  public var confirmedDraftTokens = 0

  public init() {}
}
