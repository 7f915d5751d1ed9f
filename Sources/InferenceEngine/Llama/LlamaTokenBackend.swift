import CLlama

/// A session's `TokenBackend` on a llama.cpp context: which tokens its cache holds, batched
/// evaluation, and cancellation through llama.cpp's abort callback.
///
/// Not thread-safe, like `llama_context` itself: `InferenceSession` uses it only from its own
/// serial work queue. It takes its context from the model's `ContextPool` (or creates one) and
/// gives it back when it ends.
final class LlamaTokenBackend: TokenBackend {
  let model: LlamaModel
  let contextLength: Int
  private(set) var cachedTokens: [Token] = []
  private(set) var partBoundaries = PartBoundaries()
  let context: LlamaContext

  var consistentRows: Int { context.attentionKernel.consistentRows }
  let decodeCosts: DecodeCosts?
  private let batch: LlamaBatch
  /// The flag llama.cpp's abort callback reads; set for the duration of each `evaluate`.
  private var abortFlag: CancellationFlag?
  /// Logits the tap computed, one buffer per output.
  private let candidateLogits: [UnsafeMutableBufferPointer<Float>]

  /// Whether its context comes from the model's `ContextPool` and goes back to it.
  private let pooled: Bool

  /// A backend on a context of `configuration`: a kept one from the model's pool where `pooled`,
  /// else one of its own, freed with it (a measurement's scratch context).
  init(model: LlamaModel, configuration: ContextConfiguration, pooled: Bool = true) throws {
    guard configuration.contextSize > 0, configuration.contextSize <= model.trainedContextLength else {
      throw EngineError(
        .contextCreationFailed,
        "context size \(configuration.contextSize) must be between 1 and the model's trained context (\(model.trainedContextLength))"
      )
    }
    let kept = pooled ? model.contexts.take(configuration) : nil
    let context =
      try kept?.context ?? LlamaContext(model: model, configuration: configuration, outputs: Self.outputLimit)
    self.model = model
    self.context = context
    self.pooled = pooled
    decodeCosts = model.decodeCosts(threads: configuration.threads, kernel: context.attentionKernel)
    // A kept context comes with its cache; the first request keeps what it has in common.
    cachedTokens = kept?.tokens ?? []
    partBoundaries = kept?.boundaries ?? PartBoundaries()
    candidateLogits = (0..<Self.outputLimit).map { _ in .allocate(capacity: model.vocabularySize) }
    // llama.cpp pads n_ctx up; the session's limit is what was asked for.
    contextLength = min(context.size, configuration.contextSize)
    batch = LlamaBatch(capacity: context.batchSize)
    // The callback receives this object until deinit hands the context back to the pool, which
    // unsets it.
    llama_set_abort_callback(
      context.handle,
      { data in
        guard let data else { return false }
        let backend = Unmanaged<LlamaTokenBackend>.fromOpaque(data).takeUnretainedValue()
        return backend.abortFlag?.isCancelled ?? false
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    if pooled { model.contexts.put(context, holding: cachedTokens, boundaries: partBoundaries) }
    for buffer in candidateLogits { buffer.deallocate() }
  }

  func truncateCache(to count: Int) {
    guard count < cachedTokens.count else { return }
    // llama_memory_seq_rm(seq 0, [count, ∞)): removing a tail never fails for a KV cache.
    _ = llama_memory_seq_rm(context.memory, 0, Int32(count), -1)
    cachedTokens.removeSubrange(count...)
    partBoundaries.truncate(to: count)
  }

  func markPartBoundary() { partBoundaries.mark(cachedTokens.count) }

  /// The most logits one `evaluate` returns: a sampled token's and up to 31 drafts' after it.
  ///
  /// A context of one sequence reads the weights for its rows alone, so a long draft that the
  /// model confirms (a span copied from the prompt) is where one stream gets past the speed of
  /// reading them once per token; `DraftPolicy` keeps drafts short where they are refused.
  static let outputLimit = 32

  var draftTokenLimit: Int { min(Self.outputLimit, batch.capacity) - 1 }

  func evaluate(
    _ tokens: ArraySlice<Token>, outputs: Int, candidates: [[Token]]?, cancellation flag: CancellationFlag
  ) throws -> [UnsafeBufferPointer<Float>] {
    try checkEvaluation(
      tokens, outputs: outputs, candidates: candidates, limit: min(Self.outputLimit, batch.capacity))
    abortFlag = flag
    defer { abortFlag = nil }
    var start = tokens.startIndex
    while start < tokens.endIndex {
      var end = min(start + batch.capacity, tokens.endIndex)
      // All outputs come from the last decode: leave it at least that many tokens.
      if end < tokens.endIndex && tokens.endIndex - end < outputs { end = tokens.endIndex - outputs }
      if flag.isCancelled { throw EngineError(.cancelled, "cancelled") }
      let padding = padding(for: end - start)
      context.outputLayer.prepare(skipping: candidates != nil && end == tokens.endIndex)
      batch.fill(
        tokens[start..<end], startPosition: cachedTokens.count, outputs: end == tokens.endIndex ? outputs : 1,
        padding: padding)
      // llama_decode: 0 ok; 2 aborted and <-1 fatal keep processed ubatches; others restore state.
      let status = ComputeThread.run { llama_decode(context.handle, batch.batch) }
      if status != 0 {
        resynchroniseCache(with: tokens[start..<end])
        if status == 2 { throw EngineError(.cancelled, "cancelled during prompt evaluation") }
        throw EngineError(.decodeFailed, "llama_decode failed with status \(status)")
      }
      cachedTokens.append(contentsOf: tokens[start..<end])
      if padding > 0 { _ = llama_memory_seq_rm(context.memory, 0, Int32(cachedTokens.count), -1) }
      start = end
    }
    model.unusedPages.releaseAfterEvaluation()
    if let candidates, context.outputLayer.skipped {
      return candidates.enumerated().map { index, wanted in
        context.outputLayer.logits(of: wanted, output: index, into: candidateLogits[index])
        return UnsafeBufferPointer(candidateLogits[index])
      }
    }
    // llama_get_logits_ith(-k): logits of the k-th last output of the last batch, n_vocab floats.
    return try (1...outputs).reversed().map { back in
      guard let logits = llama_get_logits_ith(context.handle, Int32(-back)) else {
        throw EngineError(.decodeFailed, "llama.cpp returned no logits")
      }
      return UnsafeBufferPointer(start: logits, count: model.vocabularySize)
    }
  }

  /// Tokens to add to a decode of `count` tokens so that it runs faster.
  ///
  /// Why: llama.cpp's CPU kernels for repacked weights multiply activations four rows at a time and
  /// each leftover row on its own, reading all the weights again. A decode of 4k + 3 tokens
  /// therefore costs more than one of 4k + 4 (`fm-bench batches` prints the cost by decode size;
  /// figures in `bench/README.md`). One padding token, removed from the cache after the decode,
  /// makes the group whole; guided generation often decodes a sampled token with two forced ones.
  private func padding(for count: Int) -> Int {
    let fits = count + 1 <= batch.capacity && cachedTokens.count + count + 1 <= context.size
    return count % 4 == 3 && fits ? 1 : 0
  }

  /// After a failed or aborted decode, keeps exactly the tokens the cache really holds.
  private func resynchroniseCache(with attempted: ArraySlice<Token>) {
    // llama_memory_seq_pos_max: the last position in the cache for seq 0, or -1 when empty.
    let held = Int(llama_memory_seq_pos_max(context.memory, 0)) + 1
    let kept = max(0, min(held - cachedTokens.count, attempted.count))
    cachedTokens.append(contentsOf: attempted.prefix(kept))
    truncateCache(to: cachedTokens.count)
    _ = llama_memory_seq_rm(context.memory, 0, Int32(cachedTokens.count), -1)
  }
}
