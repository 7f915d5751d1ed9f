import CLlama

/// A llama.cpp context: the key/value cache of one session and its forward pass.
///
/// Not thread-safe, like `llama_context` itself: `InferenceSession` uses it only from its own
/// serial work queue.
final class LlamaTokenBackend: TokenBackend {
  let model: LlamaModel
  let contextLength: Int
  private(set) var cachedTokens: [Token] = []
  private let context: OpaquePointer
  private let batch: LlamaBatch
  /// The flag llama.cpp's abort callback reads; set for the duration of each `evaluate`.
  private var abortFlag: CancellationFlag?
  /// Stands in for the output layer when only a few logits are wanted.
  private let outputLayer: OutputLayerTap
  private let configuration: ContextConfiguration
  /// Logits the tap computed, one buffer per output.
  private let candidateLogits: [UnsafeMutableBufferPointer<Float>]

  init(model: LlamaModel, configuration: ContextConfiguration) throws {
    guard configuration.contextSize > 0, configuration.contextSize <= model.trainedContextLength else {
      throw EngineError(
        .contextCreationFailed,
        "context size \(configuration.contextSize) must be between 1 and the model's trained context (\(model.trainedContextLength))"
      )
    }
    let entry = try model.contexts.take(configuration) ?? Self.createContext(model: model, configuration)
    let created = entry.context
    outputLayer = entry.outputLayer
    self.model = model
    self.configuration = configuration
    context = created
    candidateLogits = (0..<Self.maximumOutputs).map { _ in .allocate(capacity: model.vocabularySize) }
    // llama.cpp pads n_ctx up (to a multiple of 256); the session's limit is what was asked for.
    contextLength = min(Int(llama_n_ctx(created)), configuration.contextSize)
    // llama.cpp clamps n_batch to n_ctx; a batch larger than n_batch would trip its assert.
    batch = LlamaBatch(capacity: Int(llama_n_batch(created)))
    // The callback receives this object until deinit hands the context back to the pool, which
    // unsets it.
    llama_set_abort_callback(
      created,
      { data in
        guard let data else { return false }
        let backend = Unmanaged<LlamaTokenBackend>.fromOpaque(data).takeUnretainedValue()
        return backend.abortFlag?.isCancelled ?? false
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    model.contexts.put(ContextPool.Entry(context: context, outputLayer: outputLayer, configuration: configuration))
    for buffer in candidateLogits { buffer.deallocate() }
  }

  /// A new llama.cpp context with the output-layer tap as its eval callback.
  private static func createContext(model: LlamaModel, _ configuration: ContextConfiguration) throws
    -> ContextPool.Entry
  {
    var parameters = llama_context_default_params()
    parameters.n_ctx = UInt32(configuration.contextSize)
    parameters.n_batch = UInt32(configuration.batchSize)
    parameters.n_ubatch = UInt32(configuration.batchSize)
    parameters.n_seq_max = 1
    // At most the last four tokens' logits are read; the default, an output buffer for the
    // whole batch, would cost batch × vocabulary floats (300 MB on Qwen) for nothing.
    parameters.n_outputs_max = UInt32(Self.maximumOutputs)
    parameters.n_threads = Int32(configuration.threads)
    parameters.n_threads_batch = Int32(configuration.threads)
    parameters.no_perf = true
    // The tap lives as long as the context: the pool keeps them together.
    let outputLayer = OutputLayerTap()
    parameters.cb_eval = { tensor, ask, data in
      guard let tensor, let data else { return false }
      return Unmanaged<OutputLayerTap>.fromOpaque(data).takeUnretainedValue().observe(tensor, ask: ask)
    }
    parameters.cb_eval_user_data = Unmanaged.passUnretained(outputLayer).toOpaque()
    let (created, log) = LlamaRuntime.capturingLog { llama_init_from_model(model.handle, parameters) }
    guard let created else {
      throw EngineError(.contextCreationFailed, "cannot create a llama.cpp context: \(log.text)")
    }
    return ContextPool.Entry(context: created, outputLayer: outputLayer, configuration: configuration)
  }

  private var memory: llama_memory_t? { llama_get_memory(context) }

  func truncateCache(to count: Int) {
    guard count < cachedTokens.count else { return }
    // llama_memory_seq_rm(seq 0, [count, ∞)): removing a tail never fails for a KV cache.
    _ = llama_memory_seq_rm(memory, 0, Int32(count), -1)
    cachedTokens.removeSubrange(count...)
  }

  func evaluate(
    _ tokens: ArraySlice<Token>, outputs: Int, candidates: [[Token]]?, cancellation flag: CancellationFlag
  ) throws -> [UnsafeBufferPointer<Float>] {
    guard !tokens.isEmpty else { throw EngineError(.invalidRequest, "nothing to evaluate") }
    try Self.checkOutputs(
      outputs, tokens: tokens.count, candidates: candidates, limit: min(Self.maximumOutputs, batch.capacity))
    guard cachedTokens.count + tokens.count <= contextLength else {
      throw EngineError(
        .contextFull, "\(cachedTokens.count + tokens.count) tokens do not fit the context of \(contextLength)")
    }
    abortFlag = flag
    defer { abortFlag = nil }
    var start = tokens.startIndex
    while start < tokens.endIndex {
      var end = min(start + batch.capacity, tokens.endIndex)
      // All outputs come from the last decode: leave it at least that many tokens.
      if end < tokens.endIndex && tokens.endIndex - end < outputs { end = tokens.endIndex - outputs }
      if flag.isCancelled { throw EngineError(.cancelled, "cancelled") }
      let padding = padding(for: end - start)
      outputLayer.prepare(skipping: candidates != nil && end == tokens.endIndex)
      batch.fill(
        tokens[start..<end], startPosition: cachedTokens.count, outputs: end == tokens.endIndex ? outputs : 1,
        padding: padding)
      // llama_decode: 0 ok; 2 aborted and <-1 fatal keep processed ubatches; others restore state.
      let status = llama_decode(context, batch.batch)
      if status != 0 {
        resynchroniseCache(with: tokens[start..<end])
        if status == 2 { throw EngineError(.cancelled, "cancelled during prompt evaluation") }
        throw EngineError(.decodeFailed, "llama_decode failed with status \(status)")
      }
      cachedTokens.append(contentsOf: tokens[start..<end])
      if padding > 0 { _ = llama_memory_seq_rm(memory, 0, Int32(cachedTokens.count), -1) }
      start = end
    }
    model.unusedPages.releaseAfterEvaluation()
    if let candidates, outputLayer.skipped {
      return candidates.enumerated().map { index, wanted in
        outputLayer.logits(of: wanted, output: index, into: candidateLogits[index])
        return UnsafeBufferPointer(candidateLogits[index])
      }
    }
    // llama_get_logits_ith(-k): logits of the k-th last output of the last batch, n_vocab floats.
    return try (1...outputs).reversed().map { back in
      guard let logits = llama_get_logits_ith(context, Int32(-back)) else {
        throw EngineError(.decodeFailed, "llama.cpp returned no logits")
      }
      return UnsafeBufferPointer(start: logits, count: model.vocabularySize)
    }
  }

  /// Tokens to add to a decode of `count` tokens so that it runs faster.
  ///
  /// Why: llama.cpp's CPU kernels for repacked weights multiply activations four rows at a time
  /// and each leftover row on its own, reading all the weights again. A decode of 4k + 3 tokens
  /// therefore costs more than one of 4k + 4 (`fm-bench batches`, Qwen 1.5B on 2 cores: 3 tokens
  /// 134 ms, 4 tokens 109 ms; 7 tokens 214 ms, 8 tokens 186 ms). One padding token, removed from
  /// the cache after the decode, makes the group whole; guided generation often decodes a sampled
  /// token with two forced ones.
  private func padding(for count: Int) -> Int {
    let fits = count + 1 <= batch.capacity && cachedTokens.count + count + 1 <= Int(llama_n_ctx(context))
    return count % 4 == 3 && fits ? 1 : 0
  }

  /// After a failed or aborted decode, keeps exactly the tokens the cache really holds.
  private func resynchroniseCache(with attempted: ArraySlice<Token>) {
    // llama_memory_seq_pos_max: the last position in the cache for seq 0, or -1 when empty.
    let held = Int(llama_memory_seq_pos_max(memory, 0)) + 1
    let kept = max(0, min(held - cachedTokens.count, attempted.count))
    cachedTokens.append(contentsOf: attempted.prefix(kept))
    truncateCache(to: cachedTokens.count)
    _ = llama_memory_seq_rm(memory, 0, Int32(cachedTokens.count), -1)
  }
}
