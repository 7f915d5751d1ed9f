import CLlama
import Foundation

/// Runs one `llama_decode` for everything the slots of a shared context wait for: each
/// running sequence's next tokens and chunks of waiting prompts, as `BatchPlan` chooses them.
///
/// Its own thread is the only one that touches the llama.cpp context, so slots never lock it:
/// a slot's `evaluate` hands a `BatchEvaluation` over and blocks until the decode that
/// finished it is done. A cancelled evaluation leaves the waiting set before the next decode
/// and the decode in flight is never aborted for it, since the others' tokens are in it too;
/// so cancelling waits for at most one decode.
final class BatchScheduler: @unchecked Sendable {
  private let model: LlamaModel
  private let context: LlamaContext
  private let batch: LlamaBatch
  /// Guards `pending`, `stopping` and `counts`; the thread waits on it for work.
  private let condition = NSCondition()
  private var pending: [BatchEvaluation] = []
  private var stopping = false
  private var counts = BatchStatistics()
  /// How many sequences run a request now (the slots in use): the most that can be waiting.
  private let runningSequences: @Sendable () -> Int
  /// How long the last decode took, which bounds how long the next one waits to gather.
  private var lastDecodeSeconds = 0.0

  /// Creates the shared context and starts the scheduler's thread.
  /// - Parameter runningSequences: how many sequences run a request now.
  /// - Throws: `EngineError.Code.contextCreationFailed` with llama.cpp's reason.
  init(model: LlamaModel, configuration: BatchingConfiguration, runningSequences: @escaping @Sendable () -> Int) throws
  {
    self.model = model
    self.runningSequences = runningSequences
    context = try LlamaContext(model: model, configuration: configuration.context, sequences: configuration.slots)
    batch = LlamaBatch(capacity: context.batchSize)
    // The thread holds the scheduler until `stop()` ends its loop; the context is freed then,
    // on that thread, before the model (which the scheduler holds) can be.
    let thread = Thread { [self] in run() }
    thread.name = "BatchScheduler"
    thread.qualityOfService = .userInitiated
    thread.start()
  }

  /// Tokens the shared cache holds at most, all slots together.
  var cacheSize: Int { context.size }

  /// Ends the thread once nothing waits; called when the model that owns it ends.
  func stop() {
    condition.withLock {
      stopping = true
      condition.signal()
    }
  }

  /// What the scheduler has done so far.
  var statistics: BatchStatistics { condition.withLock { counts } }

  /// Evaluates `evaluation` in the next decodes and returns when it is finished, failed or
  /// cancelled (see its `failure`).
  func evaluate(_ evaluation: BatchEvaluation) {
    condition.withLock {
      pending.append(evaluation)
      condition.signal()
    }
    evaluation.done.wait()
  }

  private func run() {
    while let chunks = nextDecode() { decode(chunks) }
  }

  /// Waits for work, then says what the next decode holds; nil when the scheduler stops.
  ///
  /// Once work is there it waits a moment more for the other running sequences' next tokens
  /// (see `gatheringWindow`): after a decode every sequence in it samples on its own thread,
  /// and the first to come back would otherwise get a decode of its own while the others
  /// queue for the next, halving what each decode holds.
  private func nextDecode() -> [(evaluation: BatchEvaluation, chunk: BatchPlan.Chunk)]? {
    condition.withLock {
      var gatherUntil: Date?
      while true {
        // The flag is read once per evaluation: one that turns between two reads must not be
        // dropped without being answered.
        let cancelled = pending.filter { $0.cancellation.isCancelled }
        for evaluation in cancelled {
          evaluation.failure = EngineError(.cancelled, "cancelled")
          evaluation.done.signal()
        }
        pending.removeAll { evaluation in cancelled.contains { $0 === evaluation } }
        if !pending.isEmpty {
          let deadline = gatherUntil ?? Date(timeIntervalSinceNow: gatheringWindow)
          gatherUntil = deadline
          if pending.count < runningSequences() && Date() < deadline {
            _ = condition.wait(until: deadline)
            continue
          }
          let waiting = pending.enumerated().map { index, evaluation in
            BatchPlan.Pending(id: index, remaining: evaluation.remaining, outputs: evaluation.outputs)
          }
          let plan = BatchPlan.next(waiting, budget: batch.capacity)
          return plan.map { (pending[$0.id], $0) }
        }
        if stopping { return nil }
        condition.wait()
      }
    }
  }

  /// How long a decode waits for the running sequences that have not asked yet: a quarter of
  /// the last decode, at most 5 ms. Sampling a token takes well under a millisecond, masking
  /// one for a schema about one; a sequence busy for longer (a tool call, a slow consumer)
  /// costs the others no more than this.
  private var gatheringWindow: Double { min(0.005, lastDecodeSeconds / 4) }

  /// Runs one decode of `chunks` and answers the evaluations it finished or failed.
  private func decode(_ chunks: [(evaluation: BatchEvaluation, chunk: BatchPlan.Chunk)]) {
    batch.clear()
    var outputs = 0
    var outputsWithCandidates = 0
    for (evaluation, chunk) in chunks {
      let first = evaluation.evaluated
      if first == 0 {
        // What the slot's cache holds past this evaluation's start (an earlier request's
        // reply, drafts the model did not confirm, a token healing replaced) goes first.
        // llama_memory_seq_rm(seq, [p0, ∞)): removing a tail never fails for a KV cache.
        _ = llama_memory_seq_rm(context.memory, evaluation.sequence, Int32(evaluation.startPosition), -1)
      }
      for offset in first..<first + chunk.count {
        batch.append(
          evaluation.tokens[offset], position: evaluation.startPosition + offset, sequence: evaluation.sequence,
          output: chunk.isLast && offset >= evaluation.tokens.count - evaluation.outputs)
      }
      if chunk.isLast {
        outputs += evaluation.outputs
        if evaluation.candidates != nil { outputsWithCandidates += evaluation.outputs }
      }
    }
    let padding = pad(after: chunks.last)
    // The tap stands in for the output layer of a whole decode or not at all. When any
    // sequence wants all logits, every one gets them, and a constrained one reads its few
    // among them: the output layer runs for the batch once, whose cost is shared.
    context.outputLayer.prepare(skipping: outputs > 0 && outputsWithCandidates == outputs)
    // llama_decode: 0 ok; 2 aborted and <-1 fatal keep processed ubatches; others restore state.
    let started = DispatchTime.now()
    let status = llama_decode(context.handle, batch.batch)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    var answered: [BatchEvaluation] = []
    if status != 0 {
      for (evaluation, chunk) in chunks {
        // llama_memory_seq_pos_max: the sequence's last position in the cache, or -1.
        let base = evaluation.startPosition + evaluation.evaluated
        let held = Int(llama_memory_seq_pos_max(context.memory, evaluation.sequence)) + 1
        let kept = max(0, min(held - base, chunk.count))
        evaluation.evaluated += kept
        _ = llama_memory_seq_rm(context.memory, evaluation.sequence, Int32(base + kept), -1)
        evaluation.failure = EngineError(.decodeFailed, "llama_decode failed with status \(status)")
        answered.append(evaluation)
      }
    } else {
      if let padding {
        _ = llama_memory_seq_rm(context.memory, padding.sequence, Int32(padding.position), -1)
      }
      answered = readOutputs(of: chunks)
      model.unusedPages.releaseAfterEvaluation()
    }
    condition.withLock {
      pending.removeAll { evaluation in answered.contains { $0 === evaluation } }
      lastDecodeSeconds = seconds
      counts.decodes += 1
      counts.decodeSeconds += seconds
      counts.tokens += batch.count - (padding == nil ? 0 : 1)
      counts.evaluations += answered.count
      counts.widestDecode = max(counts.widestDecode, Set(chunks.map(\.evaluation.sequence)).count)
    }
    for evaluation in answered { evaluation.done.signal() }
  }

  /// Adds a token that asks for no logits to a decode of 4k + 3 rows, after the last chunk of
  /// its sequence, and says where it went (the caller removes it from the cache afterwards).
  ///
  /// Why: llama.cpp's CPU kernels for repacked weights multiply four rows at a time and each
  /// leftover row on its own, reading all the weights again, whichever sequences the rows
  /// belong to (see `LlamaTokenBackend`'s padding: Qwen 1.5B, 3 tokens 134 ms, 4 tokens 109 ms).
  private func pad(after last: (evaluation: BatchEvaluation, chunk: BatchPlan.Chunk)?) -> (
    sequence: Int32, position: Int
  )? {
    guard let (evaluation, chunk) = last, batch.count % 4 == 3, batch.count < batch.capacity else { return nil }
    let end = evaluation.evaluated + chunk.count
    let position = evaluation.startPosition + end
    // Within the slot's own share of the cache, so that it never takes another slot's cell.
    guard position < evaluation.limit else { return nil }
    batch.append(evaluation.tokens[end - 1], position: position, sequence: evaluation.sequence, output: false)
    return (evaluation.sequence, position)
  }

  /// Records what the decode evaluated and copies the logits of each evaluation it finished
  /// into that evaluation's buffers.
  /// - Returns: the finished evaluations.
  private func readOutputs(of chunks: [(evaluation: BatchEvaluation, chunk: BatchPlan.Chunk)]) -> [BatchEvaluation] {
    var finished: [BatchEvaluation] = []
    var row = 0
    var output = 0
    for (evaluation, chunk) in chunks {
      row += chunk.count
      evaluation.evaluated += chunk.count
      guard chunk.isLast else { continue }
      for index in 0..<evaluation.outputs {
        let target = evaluation.logits[index]
        if context.outputLayer.skipped, let candidates = evaluation.candidates {
          // The tap's hidden states are the decode's outputs in batch order (one ubatch).
          context.outputLayer.logits(of: candidates[index], output: output + index, into: target)
        } else if let logits = llama_get_logits_ith(context.handle, Int32(row - evaluation.outputs + index)),
          let base = target.baseAddress
        {
          // llama_get_logits_ith(i): the logits after batch row i, n_vocab floats.
          base.update(from: logits, count: min(target.count, model.vocabularySize))
        } else {
          evaluation.failure = EngineError(.decodeFailed, "llama.cpp returned no logits")
        }
      }
      output += evaluation.outputs
      finished.append(evaluation)
    }
    return finished
  }
}
