import CLlama

/// The llama.cpp context of a `BatchedModel`, shared by its slots (one sequence each), and the
/// batch its scheduler fills: the real `BatchDecoder`.
///
/// Created on the caller's thread, then used and freed on the scheduler's thread only.
final class LlamaBatchDecoder: BatchDecoder {
  /// Held so that the model stays loaded while its context lives (llama_free needs it).
  private let model: LlamaModel
  private let context: LlamaContext
  private let batch: LlamaBatch

  /// Creates the shared context: `configuration.slots` sequences of `configuration.context`.
  /// - Throws: `EngineError.Code.contextCreationFailed` with llama.cpp's reason.
  init(model: LlamaModel, configuration: BatchingConfiguration) throws {
    self.model = model
    context = try LlamaContext(model: model, configuration: configuration.context, sequences: configuration.slots)
    batch = LlamaBatch(capacity: context.batchSize)
  }

  var capacity: Int { batch.capacity }

  func removeCells(of sequence: Int32, from position: Int) {
    // llama_memory_seq_rm(seq, [p0, ∞)): removing a tail never fails for a KV cache.
    _ = llama_memory_seq_rm(context.memory, sequence, Int32(position), -1)
  }

  func cachedCount(of sequence: Int32) -> Int {
    // llama_memory_seq_pos_max: the sequence's last position in the cache, or -1.
    Int(llama_memory_seq_pos_max(context.memory, sequence)) + 1
  }

  func decode(_ rows: [BatchRow], skippingOutputLayer: Bool) -> Int32 {
    batch.clear()
    for row in rows { batch.append(row.token, position: row.position, sequence: row.sequence, output: row.output) }
    context.outputLayer.prepare(skipping: skippingOutputLayer)
    // llama_decode: 0 ok; 2 aborted and <-1 fatal keep processed ubatches; others restore state.
    return llama_decode(context.handle, batch.batch)
  }

  var skippedOutputLayer: Bool { context.outputLayer.skipped }

  func copyLogits(ofRow row: Int, into buffer: UnsafeMutableBufferPointer<Float>) -> Bool {
    // llama_get_logits_ith(i): the logits after batch row i, n_vocab floats.
    guard let logits = llama_get_logits_ith(context.handle, Int32(row)), let base = buffer.baseAddress else {
      return false
    }
    base.update(from: logits, count: min(buffer.count, model.vocabularySize))
    return true
  }

  func copyLogits(of candidates: [Token], output: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
    // The tap's hidden states are the decode's outputs in batch order (one ubatch).
    context.outputLayer.logits(of: candidates, output: output, into: buffer)
  }

  func finishedDecode() { model.unusedPages.releaseAfterEvaluation() }
}
