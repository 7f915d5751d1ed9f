import Foundation

/// Runs one `llama_decode` for everything the slots of a shared context wait for: each
/// running sequence's next tokens and chunks of waiting prompts, as `BatchPlan` chooses them.
///
/// Its own thread is the only one that touches the llama.cpp context (its `BatchDecoder`), so
/// slots never lock it: a slot's `evaluate` hands a `BatchEvaluation` over and blocks until the
/// decode that finished it is done. A cancelled evaluation leaves the waiting set before the
/// next decode and the decode in flight is never aborted for it, since the others' tokens are
/// in it too; so cancelling waits for at most one decode.
final class BatchScheduler: @unchecked Sendable {
  private let decoder: any BatchDecoder
  /// The rows of the decode being built, kept to reuse their storage.
  private var rows: [BatchRow] = []
  /// Guards `pending`, `stopping` and `counts`; the thread waits on it for work.
  private let condition = NSCondition()
  private var pending: [BatchEvaluation] = []
  private var stopping = false
  private var counts = BatchStatistics()
  /// How many sequences run a request now (the slots in use): the most that can be waiting.
  private let runningSequences: @Sendable () -> Int
  /// How long the last decode took, which bounds how long the next one waits to gather.
  private var lastDecodeSeconds = 0.0
  /// The longest a decode waits to gather (see `gatheringWindow`).
  private let longestGathering: Double
  /// Saves, copies and restores of slots' caches, carried out before each decode's removals.
  private let operations: CacheOperations
  /// Saved slots' caches by id (`CacheOperations.Operation.save`).
  private var savedCaches: [Int: [UInt8]] = [:]
  /// Slots copied into since the last decode, with the slot each copy came from: llama.cpp moves a
  /// copy's K and V at the next decode, so until then the source holds what such a slot will.
  private var pendingCopies: [Int32: Int32] = [:]
  /// Slots whose saved cache could not be restored: their next evaluation fails, its request
  /// told that the cache it counted on is gone, rather than running without it.
  private var lostCaches: Set<Int32> = []

  /// Starts the scheduler's thread on `decoder`, which from then on only that thread uses.
  /// - Parameters:
  ///   - runningSequences: how many sequences run a request now.
  ///   - operations: where taking a slot queues what it needs done to the cache first (a save,
  ///     a copy of another slot's cache, a restore).
  ///   - longestGathering: the longest a decode waits for running sequences that have not
  ///     asked yet, in seconds (see `gatheringWindow`).
  init(
    decoder: any BatchDecoder, operations: CacheOperations = CacheOperations(), longestGathering: Double = 0.005,
    runningSequences: @escaping @Sendable () -> Int
  ) {
    self.decoder = decoder
    self.operations = operations
    self.runningSequences = runningSequences
    self.longestGathering = longestGathering
    rows.reserveCapacity(decoder.capacity)
    // The thread holds the scheduler until `stop()` ends its loop; the decoder (the context) is
    // freed then, on that thread.
    let thread = Thread { [self] in run() }
    thread.name = "BatchScheduler"
    thread.qualityOfService = .userInitiated
    thread.start()
  }

  /// Ends the thread once nothing waits; called when the model that owns it ends.
  func stop() {
    condition.withLock {
      stopping = true
      condition.signal()
    }
  }

  /// What the scheduler has done so far.
  var statistics: BatchStatistics { condition.withLock { counts } }

  /// Counts a finished request's draft tokens and those of them its model confirmed.
  func countDrafts(_ drafted: Int, confirmed: Int) {
    condition.withLock {
      counts.draftTokens += drafted
      counts.confirmedDraftTokens += confirmed
    }
  }

  /// Evaluations handed over and not answered yet, the decode in flight's included.
  var unansweredEvaluations: Int { condition.withLock { pending.count } }

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
          let plan = BatchPlan.next(waiting, budget: decoder.capacity)
          return plan.map { (pending[$0.id], $0) }
        }
        if stopping { return nil }
        condition.wait()
      }
    }
  }

  /// How long a decode waits for the running sequences that have not asked yet: a quarter of
  /// the last decode, at most `longestGathering` (5 ms).
  ///
  /// Sampling a token, or masking one for a schema, takes a small part of that; a sequence busy for
  /// longer (a tool call, a slow consumer) costs the others no more than this.
  private var gatheringWindow: Double { min(longestGathering, lastDecodeSeconds / 4) }

  /// Runs one decode of `chunks` and answers the evaluations it finished or failed.
  ///
  /// The rows go in sequence order: llama.cpp decodes the rows of consecutive sequences, in
  /// increasing order, as one ubatch, and starts another at each step back or gap.
  private func decode(_ planned: [(evaluation: BatchEvaluation, chunk: BatchPlan.Chunk)]) {
    // The queued cache operations first: each was queued before any evaluation that could change
    // the cache it saves or copies.
    let queued = operations.take()
    for operation in queued { perform(operation) }
    var answered: [BatchEvaluation] = []
    let chunks = planned.filter { evaluation, _ in
      guard evaluation.evaluated == 0, lostCaches.remove(evaluation.sequence) != nil else { return true }
      evaluation.cacheLost = true
      evaluation.failure = EngineError(.decodeFailed, "the conversation's saved cache could not be restored")
      answered.append(evaluation)
      return false
    }.sorted { $0.evaluation.sequence < $1.evaluation.sequence }
    guard !chunks.isEmpty else {
      condition.withLock { pending.removeAll { evaluation in answered.contains { $0 === evaluation } } }
      for evaluation in answered { evaluation.done.signal() }
      return
    }
    rows.removeAll(keepingCapacity: true)
    var outputs = 0
    var outputsWithCandidates = 0
    for (evaluation, chunk) in chunks {
      let first = evaluation.evaluated
      if first == 0 {
        // What the slot's cache holds past this evaluation's start (an earlier request's
        // reply, drafts the model did not confirm, a token healing replaced) goes first.
        decoder.removeCells(of: evaluation.sequence, from: evaluation.startPosition)
      }
      for offset in first..<first + chunk.count {
        rows.append(
          BatchRow(
            token: evaluation.tokens[offset], position: evaluation.startPosition + offset,
            sequence: evaluation.sequence,
            output: chunk.isLast && offset >= evaluation.tokens.count - evaluation.outputs))
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
    let started = DispatchTime.now()
    let status = decoder.decode(rows, skippingOutputLayer: outputs > 0 && outputsWithCandidates == outputs)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    pendingCopies.removeAll()
    if status != 0 {
      for (evaluation, chunk) in chunks {
        // A failed decode may have kept some of its rows (llama.cpp keeps the ubatches it
        // processed): what the cache holds of this chunk counts as evaluated, the rest goes.
        let base = evaluation.startPosition + evaluation.evaluated
        let kept = max(0, min(decoder.cachedCount(of: evaluation.sequence) - base, chunk.count))
        evaluation.evaluated += kept
        decoder.removeCells(of: evaluation.sequence, from: base + kept)
        evaluation.failure = EngineError(.decodeFailed, "llama_decode failed with status \(status)")
        answered.append(evaluation)
      }
    } else {
      if let padding { decoder.removeCells(of: padding.sequence, from: padding.position) }
      answered += readOutputs(of: chunks)
      decoder.finishedDecode()
    }
    condition.withLock {
      pending.removeAll { evaluation in answered.contains { $0 === evaluation } }
      lastDecodeSeconds = seconds
      counts.decodes += 1
      counts.cacheCopies += queued.count { if case .copy = $0 { true } else { false } }
      counts.savedCaches += queued.count { if case .save = $0 { true } else { false } }
      counts.restoredCaches += queued.count { if case .restore = $0 { true } else { false } }
      counts.decodeSeconds += seconds
      counts.tokens += rows.count - (padding == nil ? 0 : 1)
      counts.evaluations += answered.count
      let sequences = Set(chunks.map(\.evaluation.sequence)).count
      counts.sequences += sequences
      counts.widestDecode = max(counts.widestDecode, sequences)
    }
    for evaluation in answered { evaluation.done.signal() }
  }

  /// Carries out one queued operation on the cache (`CacheOperations`).
  private func perform(_ operation: CacheOperations.Operation) {
    switch operation {
    case .copy(let source, let destination):
      decoder.copyCells(of: source, to: destination)
      pendingCopies[destination] = pendingCopies[source] ?? source
    case .save(let slot, let id):
      // A slot copied into since the last decode holds its source's cache once llama.cpp moves it.
      savedCaches[id] = decoder.saveCells(of: pendingCopies[slot] ?? slot)
    case .restore(let id, let slot):
      // A copy into or out of the slot still to be moved would overwrite what is restored, or
      // copy it in place of the slot's cache.
      if pendingCopies[slot] == nil, !pendingCopies.values.contains(slot), let saved = savedCaches[id],
        decoder.restoreCells(saved, into: slot)
      {
        lostCaches.remove(slot)
      } else {
        decoder.removeCells(of: slot, from: 0)
        lostCaches.insert(slot)
      }
    case .drop(let id):
      savedCaches[id] = nil
    }
  }

  /// Adds a token that asks for no logits to a decode of 4k + 3 rows of one sequence, after
  /// its chunk, and says where it went (the caller removes it from the cache afterwards).
  ///
  /// Why: llama.cpp's CPU kernels for repacked weights multiply four rows at a time and each
  /// leftover row on its own, reading all the weights again (see `LlamaTokenBackend`'s padding).
  /// Only for one sequence: a row more for one of several would give it more rows than the others,
  /// and llama.cpp would split the decode in two (see `decode(_:)`).
  private func pad(after last: (evaluation: BatchEvaluation, chunk: BatchPlan.Chunk)?) -> (
    sequence: Int32, position: Int
  )? {
    guard let (evaluation, chunk) = last, rows.count % 4 == 3, rows.count < decoder.capacity,
      rows.allSatisfy({ $0.sequence == evaluation.sequence })
    else { return nil }
    let end = evaluation.evaluated + chunk.count
    let position = evaluation.startPosition + end
    // Within the slot's own share of the cache, so that it never takes another slot's cell.
    guard position < evaluation.limit else { return nil }
    rows.append(
      BatchRow(token: evaluation.tokens[end - 1], position: position, sequence: evaluation.sequence, output: false))
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
        if decoder.skippedOutputLayer, let candidates = evaluation.candidates {
          decoder.copyLogits(of: candidates[index], output: output + index, into: target)
        } else if !decoder.copyLogits(ofRow: row - evaluation.outputs + index, into: target) {
          evaluation.failure = EngineError(.decodeFailed, "llama.cpp returned no logits")
        }
      }
      output += evaluation.outputs
      finished.append(evaluation)
    }
    return finished
  }
}
