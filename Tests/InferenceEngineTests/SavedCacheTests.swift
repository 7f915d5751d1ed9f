import Foundation
import Testing

@testable import InferenceEngine

/// A slot taken for another conversation keeps its cache in host memory, and a conversation
/// that comes back gets it restored (`SlotTable.saved`, `CacheOperations`, `BatchScheduler`).
@Suite struct SavedCacheTests {
  static let system = (1...20).map { Token($0) }
  /// A slot for `prompt`, which there must be.
  static func take(_ table: inout SlotTable, _ prompt: [Token]) throws -> SlotTable.Taken {
    let taken = table.take(for: prompt)
    return try #require(taken)
  }

  static func conversation(_ base: Token, length: Int) -> [Token] { system + (0..<length).map { base + Token($0) } }

  /// Two conversations on one slot, in turns: each takes the slot from the other, which is
  /// saved, and comes back to its own saved cache, not to what the slot holds.
  @Test func aConversationWhoseSlotWasLentComesBackToItsCache() throws {
    var table = SlotTable(count: 1, savedTokenLimit: 10_000)
    let a = Self.conversation(1000, length: 100)
    let b = Self.conversation(2000, length: 100)
    let first = try Self.take(&table, a)
    #expect(first.saved == nil && first.restoredFrom == nil)
    table.release(first.index, tokens: a, boundaries: PartBoundaries())
    let second = try Self.take(&table, b)
    // Only the system prompt in common: what a held is saved; nothing is restored.
    let savedA = try #require(second.saved)
    #expect(second.restoredFrom == nil && second.tokens == a)
    table.release(second.index, tokens: b, boundaries: PartBoundaries())
    let back = try Self.take(&table, a + [5, 6])
    #expect(back.restoredFrom == savedA)
    #expect(back.tokens == a)
    #expect(back.saved != nil)
    #expect(table.saved.map(\.tokens.count) == [a.count, b.count])
  }

  /// Nothing is saved without a limit, nor a short tail past what the new request shares, and
  /// past the limit the saved cache used longest ago is dropped.
  @Test func savingKeepsWithinItsLimit() throws {
    var off = SlotTable(count: 1)
    let once = try Self.take(&off, Self.conversation(1000, length: 100))
    off.release(once.index, tokens: Self.conversation(1000, length: 100), boundaries: PartBoundaries())
    #expect(try Self.take(&off, Self.conversation(2000, length: 100)).saved == nil)

    var table = SlotTable(count: 1, savedTokenLimit: 250)
    var dropped: [Int] = []
    var saved: [Int] = []
    for base in [Token(1000), 2000, 3000, 4000] {
      let prompt = Self.conversation(base, length: 100)
      let taken = try Self.take(&table, prompt)
      if let id = taken.saved { saved.append(id) }
      dropped += taken.dropped
      table.release(taken.index, tokens: prompt, boundaries: PartBoundaries())
    }
    #expect(saved.count == 3)
    #expect(dropped == [saved[0]])
    #expect(table.saved.reduce(0) { $0 + $1.tokens.count } <= 250)
    // A turn of the same conversation saves nothing (its tail past what it shares is short).
    let grown = Self.conversation(4000, length: 100) + [9]
    #expect(try Self.take(&table, grown).saved == nil)
  }

  /// A one-slot scheduler on which conversation `a` ran, then `b` took the slot from it (`a`'s
  /// cache saved first): ready for `a` to come back.
  struct LentSlot {
    let decoder = ScriptedBatchDecoder(capacity: 256)
    let operations = CacheOperations()
    let scheduler: BatchScheduler
    var table = SlotTable(count: 1, savedTokenLimit: 10_000)
    let a = SavedCacheTests.conversation(1000, length: 100)
    let b = SavedCacheTests.conversation(2000, length: 100)

    init() throws {
      scheduler = BatchScheduler(decoder: decoder, operations: operations, runningSequences: { 0 })
      let first = try SavedCacheTests.take(&table, a)
      #expect(SlotThread(scheduler, sequence: 0, tokens: a, startPosition: 0).waitReturned())
      table.release(first.index, tokens: a, boundaries: PartBoundaries())
      operations.queue(try SavedCacheTests.take(&table, b))
      #expect(SlotThread(scheduler, sequence: 0, tokens: Array(b[20...]), startPosition: 20).waitReturned())
      table.release(0, tokens: b, boundaries: PartBoundaries())
    }

    /// `a`'s next turn, one token more, on the slot: its evaluation, returned.
    mutating func comeBack() throws -> SlotThread {
      operations.queue(try SavedCacheTests.take(&table, a + [7]))
      let thread = SlotThread(scheduler, sequence: 0, tokens: [7], startPosition: a.count)
      #expect(thread.waitReturned())
      return thread
    }
  }

  /// On the scheduler: the save comes before the removals of the request that takes the slot,
  /// and the restore gives the slot back the positions it held.
  @Test func theSchedulerSavesBeforeAndRestoresBeforeTheNextDecode() throws {
    var slot = try LentSlot()
    defer { slot.scheduler.stop() }
    let events = slot.decoder.events
    let save = try #require(events.firstIndex(of: .save(sequence: 0)))
    #expect(save < (events.firstIndex(of: .removal(sequence: 0, from: 20)) ?? -1))
    #expect(slot.decoder.positions(of: 0) == Set(0..<slot.b.count))
    _ = try slot.comeBack()
    #expect(slot.decoder.positions(of: 0) == Set(0...slot.a.count))
    #expect(slot.scheduler.statistics.savedCaches == 2 && slot.scheduler.statistics.restoredCaches == 1)
  }

  /// A restore llama.cpp refuses empties the slot, and the request that counted on it fails with
  /// that said, rather than run on a cache without its prefix; the slot's next request runs.
  @Test func aRestoreThatFailsFailsItsRequestOnly() throws {
    var slot = try LentSlot()
    defer { slot.scheduler.stop() }
    slot.decoder.failRestores()
    let failed = try slot.comeBack()
    #expect(failed.evaluation.failure?.message.contains("could not be restored") == true)
    #expect(slot.decoder.positions(of: 0).isEmpty)
    let next = SlotThread(slot.scheduler, sequence: 0, tokens: slot.a, startPosition: 0)
    #expect(next.waitReturned())
    #expect(next.evaluation.failure == nil)
  }
}
