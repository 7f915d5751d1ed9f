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
    context = try LlamaContext(
      model: model, configuration: configuration.context, sequences: configuration.slots,
      outputs: BatchedSlotBackend.outputLimit + BatchedSlotBackend.maximumOutputs * configuration.slots)
    batch = LlamaBatch(capacity: context.batchSize)
  }

  var capacity: Int { batch.capacity }

  /// The attention kernel of the shared context.
  var attentionKernel: AttentionKernel { context.attentionKernel }

  func removeCells(of sequence: Int32, from position: Int) {
    // llama_memory_seq_rm(seq, [p0, ∞)): removing a tail never fails for a KV cache.
    _ = llama_memory_seq_rm(context.memory, sequence, Int32(position), -1)
  }

  func copyCells(of source: Int32, to destination: Int32) {
    // llama_memory_seq_cp(src, dst, p0, p1): with a stream per sequence, only whole streams
    // (p0 = p1 = -1); the cells' metadata now, their K and V at the next llama_decode's update.
    llama_memory_seq_cp(context.memory, source, destination, -1, -1)
  }

  func saveCells(of sequence: Int32) -> [UInt8]? {
    // llama_state_seq_get_size/get_data: the sequence's cells (positions, K and V) as bytes;
    // 0 when it cannot write them.
    let size = llama_state_seq_get_size(context.handle, sequence)
    guard size > 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: size)
    let written = bytes.withUnsafeMutableBufferPointer {
      llama_state_seq_get_data(context.handle, $0.baseAddress, size, sequence)
    }
    return written == size ? bytes : nil
  }

  func restoreCells(_ saved: [UInt8], into sequence: Int32) -> Bool {
    removeCells(of: sequence, from: 0)
    // llama_state_seq_set_data: the bytes read, 0 on failure (the sequence is then cleared).
    let read = saved.withUnsafeBufferPointer {
      llama_state_seq_set_data(context.handle, $0.baseAddress, saved.count, sequence)
    }
    if read == 0 { removeCells(of: sequence, from: 0) }
    return read > 0
  }

  func cachedCount(of sequence: Int32) -> Int {
    // llama_memory_seq_pos_max: the sequence's last position in the cache, or -1.
    Int(llama_memory_seq_pos_max(context.memory, sequence)) + 1
  }

  func decode(_ rows: [BatchRow], skippingOutputLayer: Bool) -> Int32 {
    batch.clear()
    for row in rows { batch.append(row.token, position: row.position, sequence: row.sequence, output: row.output) }
    // The tap reads the outputs of one ubatch, in batch order.
    context.outputLayer.prepare(skipping: skippingOutputLayer && Self.isOneUbatch(rows))
    // llama_decode: 0 ok; 2 aborted and <-1 fatal keep processed ubatches; others restore state.
    return ComputeThread.run { llama_decode(context.handle, batch.batch) }
  }

  var skippedOutputLayer: Bool { context.outputLayer.skipped }

  /// Whether llama.cpp decodes `rows` as one ubatch in their order, given a batch of at most
  /// n_ubatch rows: with a stream per sequence it splits a batch "equal" — each ubatch takes
  /// sequences of consecutive ids, in increasing order, the same number of rows from each,
  /// and holds them sequence after sequence — so it is one ubatch in order exactly when the
  /// rows are k of one sequence, then k of the next id, and so on.
  static func isOneUbatch(_ rows: [BatchRow]) -> Bool {
    guard let first = rows.first?.sequence else { return true }
    let run = rows.prefix { $0.sequence == first }.count
    return rows.count % run == 0 && rows.indices.allSatisfy { rows[$0].sequence == first + Int32($0 / run) }
  }

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
