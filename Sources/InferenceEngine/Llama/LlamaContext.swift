import CLlama

/// A llama.cpp context on a model: one key/value cache and its forward pass, with the
/// output-layer tap it was created with (llama.cpp's eval callback cannot change later).
///
/// The one owner of the `llama_context` handle, which it frees in deinit. Not thread-safe, like
/// `llama_context` itself: one `LlamaTokenBackend` uses it at a time, from its session's work
/// queue, or the model's `ContextPool` keeps it between sessions. It holds no reference to its
/// model, so a kept context does not keep the model loaded; the model frees the contexts it
/// keeps before itself.
final class LlamaContext {
  typealias Handle = OpaquePointer

  let handle: Handle
  /// Stands in for the output layer when only a few logits are wanted; the context's eval
  /// callback reads it, so it lives as long as the context.
  let outputLayer = OutputLayerTap()
  let configuration: ContextConfiguration
  /// The attention kernel it was created with: the configuration's, or the measured one.
  let attentionKernel: AttentionKernel

  /// Creates a context on `model` with the output-layer tap as its eval callback.
  /// - Parameters:
  ///   - sequences: how many sequences (`BatchedModel`'s slots) share the context, each holding up
  ///     to `configuration.contextSize` tokens in a cache stream of its own.
  ///   - outputs: the most logits one decode returns, for all sequences together.
  /// - Throws: `EngineError.Code.contextCreationFailed` with llama.cpp's reason.
  init(model: LlamaModel, configuration: ContextConfiguration, sequences: Int = 1, outputs: Int) throws {
    var parameters = llama_context_default_params()
    parameters.n_ctx = UInt32(configuration.contextSize * sequences)
    parameters.n_batch = UInt32(configuration.batchSize)
    // One ubatch per decode: the output-layer tap sees every output of the decode at once.
    parameters.n_ubatch = UInt32(configuration.batchSize)
    parameters.n_seq_max = UInt32(sequences)
    // Not unified: each sequence has a stream of n_ctx / n_seq_max cells, and its rows attend to
    // that stream only. In one unified cache every row of a decode scans the cells of every
    // sequence to find its own, those an idle slot keeps for its next request included, so streams
    // generate markedly faster beside idle slots that hold long prompts (docs/BATCHING.md).
    // llama.cpp then splits a decode "equal" (see `LlamaBatchDecoder.isOneUbatch` and
    // `BatchScheduler.decode`).
    parameters.kv_unified = false
    // Only the last tokens' logits of each sequence are read (a sampled token's and its drafts');
    // the default, an output buffer for the whole batch, would cost batch × vocabulary floats
    // (hundreds of megabytes on Qwen's vocabulary) for nothing.
    parameters.n_outputs_max = UInt32(outputs)
    parameters.n_threads = Int32(configuration.threads)
    parameters.n_threads_batch = Int32(configuration.threads)
    parameters.no_perf = true
    // The attention kernel that is faster on this machine for this model's shape, unless the
    // configuration names one (`AttentionKernel`).
    let kernel =
      configuration.attentionKernel
      ?? AttentionKernel.measured(for: model.attentionShape, threads: configuration.threads)
    parameters.flash_attn_type = kernel.llamaType
    attentionKernel = kernel
    parameters.cb_eval = { tensor, ask, data in
      guard let tensor, let data else { return false }
      return Unmanaged<OutputLayerTap>.fromOpaque(data).takeUnretainedValue().observe(tensor, ask: ask)
    }
    parameters.cb_eval_user_data = Unmanaged.passUnretained(outputLayer).toOpaque()
    // llama_init_from_model: returns NULL on failure, with the reason in the log.
    let (created, log) = LlamaRuntime.capturingLog { llama_init_from_model(model.handle, parameters) }
    guard let created else {
      throw EngineError(.contextCreationFailed, "cannot create a llama.cpp context: \(log.text)")
    }
    handle = created
    self.configuration = configuration
  }

  deinit {
    // llama_free: the model must still be loaded, which is why the model drains its pool
    // before llama_model_free and a backend holds its model.
    llama_free(handle)
  }

  /// Tokens the cache holds at most, for all sequences together: llama.cpp pads the size asked
  /// for up (to a multiple of 256).
  var size: Int { Int(llama_n_ctx(handle)) }

  /// Tokens one `llama_decode` takes at most: llama.cpp clamps n_batch to n_ctx.
  var batchSize: Int { Int(llama_n_batch(handle)) }

  /// The key/value cache, owned by the context.
  var memory: llama_memory_t? { llama_get_memory(handle) }
}
