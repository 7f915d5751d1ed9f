import Foundation
import Testing

@testable import InferenceEngine

/// The scheduler's thread on a scripted decoder (no model): what goes into each decode, when
/// each evaluation is answered and with what, as `BatchScheduler` and docs/BATCHING.md promise.
@Suite struct BatchSchedulerTests {
  func scheduler(
    _ decoder: ScriptedBatchDecoder, running: Int = 0, longestGathering: Double = 0.005,
    operations: CacheOperations = CacheOperations()
  ) -> BatchScheduler {
    BatchScheduler(
      decoder: decoder, operations: operations, longestGathering: longestGathering, runningSequences: { running })
  }

  /// Waits until `condition` holds; false after 10 s.
  func waitUntil(_ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 10)
    while !condition() {
      if Date() > deadline { return false }
      Thread.sleep(forTimeInterval: 0.001)
    }
    return true
  }

  /// Holds the scheduler in a decode of one token of sequence 0, so that what is handed over
  /// next waits for the decode after it.
  func busy(_ scheduler: BatchScheduler, _ decoder: ScriptedBatchDecoder, position: Int = 0) throws -> SlotThread {
    let begun = decoder.decodes.count
    decoder.hold()
    let thread = SlotThread(scheduler, sequence: 0, tokens: [1], startPosition: position)
    try #require(decoder.waitForDecodes(begun + 1))
    return thread
  }

  /// Everything that waits while a decode runs goes into the next decode, each evaluation's
  /// tokens at its own positions, and each gets the logits of its own rows.
  @Test func everyWaitingSequenceGoesInTheNextDecode() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    let scheduler = scheduler(decoder)
    defer { scheduler.stop() }
    let first = try busy(scheduler, decoder)
    let one = SlotThread(scheduler, sequence: 1, tokens: [101], startPosition: 3)
    let two = SlotThread(scheduler, sequence: 2, tokens: [102, 103], startPosition: 5, outputs: 2)
    let three = SlotThread(scheduler, sequence: 3, tokens: [104])
    try #require(waitUntil { scheduler.unansweredEvaluations == 4 })
    decoder.release()
    for thread in [first, one, two, three] { #expect(thread.waitReturned()) }

    let decodes = decoder.decodes
    #expect(decodes.count == 2)
    let rows = decodes[1].rows
    #expect(
      Set(rows.map { [$0.token, Token($0.position), $0.sequence] })
        == [[101, 3, 1], [102, 5, 2], [103, 6, 2], [104, 0, 3]])
    #expect(rows.allSatisfy { $0.output })
    for thread in [one, two, three] {
      #expect(thread.evaluation.failure == nil)
      #expect(thread.evaluation.evaluated == thread.evaluation.tokens.count)
    }
    #expect(one.logits()[0] == 101)
    #expect(two.logits(0)[0] == 102 && two.logits(1)[0] == 103)
    #expect(two.logits(1)[1] == two.logits(0)[1] + 1)
    #expect(three.logits()[0] == 104)
    // A first evaluation of a request clears what its slot holds past its start, before the decode.
    let events = decoder.events
    let decodeIndex = try #require(events.firstIndex(of: .decode(index: 1)))
    #expect(events[..<decodeIndex].contains(.removal(sequence: 1, from: 3)))
    let statistics = scheduler.statistics
    #expect(statistics.decodes == 2 && statistics.evaluations == 4 && statistics.tokens == 5)
    #expect(statistics.widestDecode == 3)
    #expect(decoder.finishedDecodes == 2)
  }

  /// A copy of one slot's cache into another, queued when the slot was taken, is made before
  /// the next decode's removals and rows: the new request's first evaluation then drops what
  /// the copy holds past its prefix, and the source slot is left as it was.
  @Test func aQueuedCopyComesBeforeTheNextDecodesRemovals() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    let operations = CacheOperations()
    let scheduler = scheduler(decoder, operations: operations)
    defer { scheduler.stop() }
    let source = SlotThread(scheduler, sequence: 0, tokens: Array(1...30), startPosition: 0)
    #expect(source.waitReturned())
    operations.queue([.copy(from: 0, to: 2)])
    let copied = SlotThread(scheduler, sequence: 2, tokens: [77, 78], startPosition: 20)
    #expect(copied.waitReturned())
    let events = decoder.events
    let copy = try #require(events.firstIndex(of: .copy(from: 0, to: 2)))
    let removal = try #require(events.firstIndex(of: .removal(sequence: 2, from: 20)))
    let firstDecode = try #require(events.firstIndex(of: .decode(index: 0)))
    let secondDecode = try #require(events.firstIndex(of: .decode(index: 1)))
    #expect(firstDecode < copy && copy < removal && removal < secondDecode)
    #expect(decoder.positions(of: 2) == Set(0..<22))
    #expect(decoder.positions(of: 0) == Set(0..<30))
    #expect(scheduler.statistics.cacheCopies == 1)
    // Made once.
    _ = SlotThread(scheduler, sequence: 2, tokens: [79], startPosition: 22).waitReturned()
    #expect(decoder.events.filter { $0 == .copy(from: 0, to: 2) }.count == 1)
  }

  /// A copy queued before the source slot's next request hands over its first evaluation is
  /// made before that evaluation's removal, in the same decode: the copy holds the source as it
  /// was.
  @Test func aCopyComesBeforeItsSourceChangesInTheSameDecode() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    let operations = CacheOperations()
    let scheduler = scheduler(decoder, operations: operations)
    defer { scheduler.stop() }
    #expect(SlotThread(scheduler, sequence: 1, tokens: Array(1...30), startPosition: 0).waitReturned())
    let running = try busy(scheduler, decoder)
    operations.queue([.copy(from: 1, to: 2)])
    let source = SlotThread(scheduler, sequence: 1, tokens: [90, 91], startPosition: 10)
    let copied = SlotThread(scheduler, sequence: 2, tokens: [77], startPosition: 20)
    try #require(waitUntil { scheduler.unansweredEvaluations == 3 })
    decoder.release()
    for thread in [running, source, copied] { #expect(thread.waitReturned()) }
    let events = decoder.events
    let copy = try #require(events.firstIndex(of: .copy(from: 1, to: 2)))
    #expect(copy < (events.firstIndex(of: .removal(sequence: 1, from: 10)) ?? -1))
    #expect(decoder.decodes.last?.rows.map(\.sequence) == [1, 1, 2])
    #expect(decoder.positions(of: 2) == Set(0..<21))
    #expect(decoder.positions(of: 1) == Set(0..<12))
  }

  /// Running sequences' next tokens go in whole; a long prompt gets what is left of the
  /// budget, decode after decode, and its output comes from its last row only.
  @Test func aPromptIsChunkedUnderTheBudgetAfterTheRunningTokens() throws {
    let decoder = ScriptedBatchDecoder(capacity: 16)
    let scheduler = scheduler(decoder)
    defer { scheduler.stop() }
    let first = try busy(scheduler, decoder)
    let promptTokens = (200..<240).map { Token($0) }
    let prompt = SlotThread(scheduler, sequence: 1, tokens: promptTokens)
    try #require(waitUntil { scheduler.unansweredEvaluations == 2 })
    let running = [
      SlotThread(scheduler, sequence: 2, tokens: [50], startPosition: 9),
      SlotThread(scheduler, sequence: 3, tokens: [60], startPosition: 4),
    ]
    try #require(waitUntil { scheduler.unansweredEvaluations == 4 })
    decoder.release()
    for thread in [first, prompt] + running { #expect(thread.waitReturned()) }

    let decodes = decoder.decodes
    #expect(decodes.allSatisfy { $0.rows.count <= 16 })
    #expect(decodes[1].rows.filter { $0.sequence != 1 }.map(\.token) == [50, 60])
    #expect(decodes[1].rows.count == 16)
    let promptRows = decodes.flatMap { $0.rows.filter { $0.sequence == 1 } }
    #expect(promptRows.map(\.token) == promptTokens)
    #expect(promptRows.map(\.position) == Array(0..<40))
    #expect(promptRows.map(\.output) == Array(repeating: false, count: 39) + [true])
    #expect(decodes.count == 4)
    #expect(prompt.evaluation.failure == nil && prompt.logits()[0] == 239)
  }

  /// After a decode, a running sequence that asks a moment after another still joins its
  /// decode: the scheduler waits (a quarter of the last decode, at most `longestGathering`)
  /// while fewer evaluations wait than sequences run.
  @Test func theGatheringWindowMergesSequencesThatComeBackApart() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    let scheduler = scheduler(decoder, running: 2, longestGathering: 0.3)
    defer { scheduler.stop() }
    // A decode of 1.2 s: the next one waits up to 0.3 s for the second sequence.
    decoder.takeSeconds(1.2)
    let first = SlotThread(scheduler, sequence: 0, tokens: [1])
    #expect(first.waitReturned())
    decoder.takeSeconds(0)
    let early = SlotThread(scheduler, sequence: 0, tokens: [2], startPosition: 1)
    Thread.sleep(forTimeInterval: 0.03)
    let late = SlotThread(scheduler, sequence: 1, tokens: [3])
    #expect(early.waitReturned() && late.waitReturned())
    let decodes = decoder.decodes
    #expect(decodes.count == 2)
    #expect(Set(decodes.last?.rows.map(\.sequence) ?? []) == [0, 1])
  }

  /// An evaluation cancelled while another decode runs is answered as soon as that decode
  /// ends, with `cancelled`, and is in no later decode: cancelling waits at most one decode.
  @Test func aCancelledEvaluationLeavesBeforeTheNextDecode() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    let scheduler = scheduler(decoder)
    defer { scheduler.stop() }
    let first = try busy(scheduler, decoder)
    let flag = CancellationFlag()
    let cancelled = SlotThread(scheduler, sequence: 1, tokens: [10, 11, 12], cancellation: flag)
    let other = SlotThread(scheduler, sequence: 2, tokens: [20])
    try #require(waitUntil { scheduler.unansweredEvaluations == 3 })
    flag.cancel()
    decoder.allow(1)
    try #require(decoder.waitForDecodes(2))
    // The next decode is held: the cancelled evaluation was answered before it.
    #expect(cancelled.waitReturned())
    #expect(!other.hasReturned)
    #expect(cancelled.evaluation.failure?.code == .cancelled)
    #expect(cancelled.evaluation.evaluated == 0)
    #expect(!decoder.decodes[1].rows.contains { $0.sequence == 1 })
    decoder.release()
    #expect(first.waitReturned() && other.waitReturned())
    #expect(other.evaluation.failure == nil)
  }

  /// A prompt cancelled between its chunks keeps what it evaluated, in its cache and in
  /// `evaluated`, and goes into no further decode.
  @Test func aPromptCancelledBetweenChunksKeepsWhatItEvaluated() throws {
    let decoder = ScriptedBatchDecoder(capacity: 8)
    let scheduler = scheduler(decoder)
    defer { scheduler.stop() }
    decoder.hold()
    let flag = CancellationFlag()
    let prompt = SlotThread(scheduler, sequence: 0, tokens: (0..<20).map { Token($0) }, cancellation: flag)
    try #require(decoder.waitForDecodes(1))
    flag.cancel()
    decoder.release()
    #expect(prompt.waitReturned())
    #expect(prompt.evaluation.failure?.code == .cancelled)
    #expect(prompt.evaluation.evaluated == 8)
    #expect(decoder.decodes.count == 1)
    #expect(decoder.positions(of: 0) == Set(0..<8))
  }

  /// A decode that fails fails exactly the evaluations in it, each keeping only the rows the
  /// cache kept; one that waited beside it, and any after it, are served.
  @Test func aFailedDecodeFailsExactlyItsEvaluations() throws {
    let decoder = ScriptedBatchDecoder(capacity: 4)
    let scheduler = scheduler(decoder)
    defer { scheduler.stop() }
    decoder.fail(decode: 1, status: 1, keptRows: 1)
    let first = try busy(scheduler, decoder)
    let failing = [
      SlotThread(scheduler, sequence: 1, tokens: [10], startPosition: 2),
      SlotThread(scheduler, sequence: 2, tokens: [20]),
      SlotThread(scheduler, sequence: 3, tokens: [30, 31], outputs: 2),
    ]
    try #require(waitUntil { scheduler.unansweredEvaluations == 4 })
    // Beyond the budget of the failing decode: it waits for the next one.
    let beside = SlotThread(scheduler, sequence: 4, tokens: [40, 41, 42, 43])
    try #require(waitUntil { scheduler.unansweredEvaluations == 5 })
    decoder.release()
    for thread in [first, beside] + failing { #expect(thread.waitReturned()) }

    let failed = decoder.decodes[1]
    #expect(Set(failed.rows.map(\.sequence)) == [1, 2, 3])
    let keptSequence = failed.rows[0].sequence
    for thread in failing {
      let failure = thread.evaluation.failure
      #expect(failure?.code == .decodeFailed)
      #expect(failure?.message.contains("status 1") == true)
      let sequence = thread.evaluation.sequence
      #expect(thread.evaluation.evaluated == (sequence == keptSequence ? 1 : 0))
      if sequence != keptSequence { #expect(decoder.positions(of: sequence).isEmpty) }
    }
    #expect(beside.evaluation.failure == nil && beside.evaluation.evaluated == 4)
    #expect(beside.logits()[0] == 43)
    let after = SlotThread(scheduler, sequence: 2, tokens: [21])
    #expect(after.waitReturned())
    #expect(after.evaluation.failure == nil && after.logits()[0] == 21)
    #expect(scheduler.statistics.decodes == 4)
  }

  /// `stop()` lets what waits be served, then ends the thread, which lets the scheduler go.
  @Test func stopEndsTheThreadOnceNothingWaits() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    weak var weakScheduler: BatchScheduler?
    var threads: [SlotThread] = []
    do {
      let scheduler = scheduler(decoder)
      weakScheduler = scheduler
      threads.append(try busy(scheduler, decoder))
      threads.append(SlotThread(scheduler, sequence: 1, tokens: [2]))
      try #require(waitUntil { scheduler.unansweredEvaluations == 2 })
      scheduler.stop()
    }
    decoder.release()
    for thread in threads {
      #expect(thread.waitReturned())
      #expect(thread.evaluation.failure == nil && thread.evaluation.evaluated == 1)
    }
    #expect(decoder.decodes.count == 2)
    threads.removeAll()
    #expect(waitUntil { weakScheduler == nil })
  }

  /// A decode of 4k + 3 rows of one sequence gets one more row that asks for no logits: its
  /// last token again, at the next position, removed from the cache after the decode and
  /// counted in no statistics.
  @Test func aDecodeOf4kPlus3RowsOfOneSequenceIsPaddedAndThePadRemoved() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    let scheduler = scheduler(decoder)
    defer { scheduler.stop() }
    let first = try busy(scheduler, decoder)
    let thread = SlotThread(scheduler, sequence: 1, tokens: [10, 11, 12], startPosition: 5)
    try #require(waitUntil { scheduler.unansweredEvaluations == 2 })
    decoder.release()
    for thread in [first, thread] { #expect(thread.waitReturned()) }

    let rows = decoder.decodes[1].rows
    #expect(rows.count == 4)
    #expect(rows[3] == BatchRow(token: 12, position: 8, sequence: 1, output: false))
    let events = decoder.events
    let decodeIndex = try #require(events.firstIndex(of: .decode(index: 1)))
    #expect(events[(decodeIndex + 1)...].contains(.removal(sequence: 1, from: 8)))
    #expect(!decoder.positions(of: 1).contains(8))
    #expect(scheduler.statistics.tokens == 4)
    #expect(thread.logits()[0] == 12)
  }

  /// No pad where it would pass the slot's own share of the cache.
  @Test func noPadPastTheSlotsLimit() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    let scheduler = scheduler(decoder)
    defer { scheduler.stop() }
    let first = try busy(scheduler, decoder)
    let thread = SlotThread(scheduler, sequence: 1, tokens: [10, 11, 12], startPosition: 5, limit: 8)
    try #require(waitUntil { scheduler.unansweredEvaluations == 2 })
    decoder.release()
    for thread in [first, thread] { #expect(thread.waitReturned()) }
    #expect(decoder.decodes[1].rows.count == 3)
  }

  /// The rows of several sequences go in sequence order, whatever order they came in, and get
  /// no pad: llama.cpp decodes the rows of consecutive sequences in increasing order as one
  /// ubatch, and a sequence with a row more than the others would split it.
  @Test func severalSequencesGoInSequenceOrderUnpadded() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    let scheduler = scheduler(decoder)
    defer { scheduler.stop() }
    let first = try busy(scheduler, decoder)
    var threads: [SlotThread] = []
    for sequence in [3, 1, 2] as [Int32] {
      threads.append(SlotThread(scheduler, sequence: sequence, tokens: [Token(10 * sequence)], startPosition: 5))
      try #require(waitUntil { scheduler.unansweredEvaluations == 1 + threads.count })
    }
    decoder.release()
    for thread in [first] + threads { #expect(thread.waitReturned()) }
    #expect(decoder.decodes[1].rows.map(\.sequence) == [1, 2, 3])
    for thread in threads { #expect(thread.logits()[0] == Float(thread.evaluation.tokens[0])) }
  }

  /// The output layer is skipped only when every output of the decode comes with candidates,
  /// and then each sequence reads its candidates' logits by its output's place in the decode;
  /// with a free sequence beside it, a constrained one reads the full logits of its row.
  @Test func theOutputLayerIsSkippedOnlyWhenEveryOutputHasCandidates() throws {
    let decoder = ScriptedBatchDecoder(capacity: 64)
    let scheduler = scheduler(decoder)
    defer { scheduler.stop() }
    var first = try busy(scheduler, decoder)
    let a = SlotThread(scheduler, sequence: 1, tokens: [10], candidates: [[5, 6]])
    let b = SlotThread(scheduler, sequence: 2, tokens: [20], candidates: [[7]])
    try #require(waitUntil { scheduler.unansweredEvaluations == 3 })
    decoder.release()
    for thread in [first, a, b] { #expect(thread.waitReturned()) }
    #expect(decoder.decodes[1].skippingOutputLayer)
    let order = decoder.decodes[1].rows.map(\.sequence)
    #expect(a.logits() == [-5, Float(order.firstIndex(of: 1) ?? -1)])
    #expect(b.logits() == [-7, Float(order.firstIndex(of: 2) ?? -1)])

    first = try busy(scheduler, decoder, position: 1)
    let constrained = SlotThread(scheduler, sequence: 1, tokens: [11], startPosition: 1, candidates: [[8]])
    let free = SlotThread(scheduler, sequence: 2, tokens: [21], startPosition: 1)
    try #require(waitUntil { scheduler.unansweredEvaluations == 3 })
    decoder.release()
    for thread in [first, constrained, free] { #expect(thread.waitReturned()) }
    #expect(decoder.decodes[3].skippingOutputLayer == false)
    #expect(constrained.logits()[0] == 11 && free.logits()[0] == 21)
  }
}
