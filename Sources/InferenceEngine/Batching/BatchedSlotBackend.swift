/// A session's `TokenBackend` on a `BatchedModel`: one slot (sequence) of the shared context
/// while a request runs, its evaluations decoded by the scheduler together with the other
/// slots'.
///
/// The slot is chosen when the request's prompt is known (`beginRequest`) and given back when
/// the request ends, holding what the request left in it: between requests a session holds no
/// slot, so an idle conversation never keeps a running one waiting, and its next turn most
/// likely finds its slot again by prefix. Used from one thread at a time, like every backend.
final class BatchedSlotBackend: TokenBackend {
  let owner: BatchedModel
  let contextLength: Int
  private(set) var cachedTokens: [Token] = []
  private(set) var partBoundaries = PartBoundaries()
  /// The slot held, while a request runs.
  private var slot: Int?
  /// Where the scheduler copies this backend's logits, one buffer per output.
  private let logits: [UnsafeMutableBufferPointer<Float>]

  init(owner: BatchedModel, contextLength: Int) {
    self.owner = owner
    self.contextLength = contextLength
    logits = (0..<Self.outputLimit).map { _ in .allocate(capacity: owner.vocabularySize) }
  }

  deinit {
    endRequest()
    for buffer in logits { buffer.deallocate() }
  }

  func beginRequest(prompt: [Token], cancellation flag: CancellationFlag) throws {
    guard slot == nil else { return }
    let taken = try owner.slots.take(for: prompt, cancellation: flag)
    slot = taken.index
    // Only what fits this session's context is of use to it.
    cachedTokens = Array(taken.tokens.prefix(contextLength))
    partBoundaries = taken.boundaries
    partBoundaries.truncate(to: cachedTokens.count)
  }

  func endRequest() {
    guard let slot else { return }
    owner.slots.release(slot, tokens: cachedTokens, boundaries: partBoundaries)
    self.slot = nil
    cachedTokens = []
    partBoundaries = PartBoundaries()
  }

  func countDrafts(_ drafted: Int, confirmed: Int) { owner.scheduler.countDrafts(drafted, confirmed: confirmed) }

  /// Forgets the tail; the scheduler removes it from the shared cache before this slot's next
  /// evaluation, on its own thread (the only one that touches the context).
  func truncateCache(to count: Int) {
    guard count < cachedTokens.count else { return }
    cachedTokens.removeSubrange(count...)
    partBoundaries.truncate(to: count)
  }

  func markPartBoundary() { partBoundaries.mark(cachedTokens.count) }

  /// False: every decode holds the other slots' rows too, so a prompt goes in one evaluation.
  var evaluatesPartsExactly: Bool { false }

  /// The kernel's while this slot runs alone; one while other slots run, whose rows beside this
  /// one's make it round otherwise anyway (`BatchedModel`), and whose decodes would take a padding
  /// row per slot for the extra row.
  var consistentRows: Int { sharesDecodes ? 1 : owner.attentionKernel.consistentRows }

  /// Alone, as many as a context of its own would take; while another slot runs a request,
  /// `sharedDraftLimit`.
  var draftTokenLimit: Int { sharesDecodes ? min(Self.sharedDraftLimit, outputLimit - 1) : outputLimit - 1 }

  /// The model's, for the decodes this slot runs alone (the driver asks for them only then).
  var decodeCosts: DecodeCosts? { owner.decodeCosts }

  /// Whether another slot runs a request: its rows share this slot's decodes.
  var sharesDecodes: Bool { owner.slots.busyCount > 1 }

  /// The most drafts in a decode other slots share: with the slot's own token, 8 rows (whole
  /// groups of four for the CPU kernels, see `LlamaTokenBackend`'s padding), so that a copied
  /// span takes at most as many rows as eight running slots' tokens, and the others' next token
  /// waits for a decode of a few rows more, not of 16.
  static let sharedDraftLimit = 7

  /// The most logits one evaluation returns: a sampled token's and its drafts', as on a context
  /// of its own (`LlamaTokenBackend.outputLimit`), within what one decode holds.
  static let outputLimit = LlamaTokenBackend.outputLimit
  private var outputLimit: Int { min(Self.outputLimit, owner.configuration.context.batchSize) }

  func evaluate(
    _ tokens: ArraySlice<Token>, outputs: Int, candidates: [[Token]]?, cancellation flag: CancellationFlag
  ) throws -> [UnsafeBufferPointer<Float>] {
    try checkEvaluation(tokens, outputs: outputs, candidates: candidates, limit: outputLimit)
    // A caller that evaluates without beginning a request (a benchmark driving the backend
    // itself) holds the least recently used slot until it ends one or lets the backend go.
    if slot == nil { try beginRequest(prompt: [], cancellation: flag) }
    guard let slot else { throw EngineError(.invalidRequest, "no slot") }
    if flag.isCancelled { throw EngineError(.cancelled, "cancelled") }
    let evaluation = BatchEvaluation(
      sequence: Int32(slot), tokens: Array(tokens), startPosition: cachedTokens.count, outputs: outputs,
      candidates: candidates, limit: contextLength, cancellation: flag, logits: logits)
    owner.scheduler.evaluate(evaluation)
    cachedTokens.append(contentsOf: tokens.prefix(evaluation.evaluated))
    if evaluation.cacheLost {
      cachedTokens = []
      partBoundaries = PartBoundaries()
    }
    if let failure = evaluation.failure { throw failure }
    return logits.prefix(outputs).map { UnsafeBufferPointer($0) }
  }
}
