import Foundation

/// The slots of a `BatchedModel` that requests take and give back, with a queue of requests
/// waiting for one when all are busy.
///
/// A request waits rather than failing: the server in front bounds how many may wait (and
/// answers 503 past that) and reads `waitingCount` for its metrics; the engine never turns a
/// request down that it could serve a moment later. Waiters are served in the order they
/// came, each on the slot `SlotTable` chooses for its prompt when its turn comes.
final class SlotPool: @unchecked Sendable {
  /// Guards `table`, `waiting` and `nextTicket`; waiters wait on it.
  private let condition = NSCondition()
  private var table: SlotTable
  private var waiting: [Int] = []
  private var nextTicket = 0
  /// Where a slot taken with another's prefix (`SlotTable.Taken.copiedFrom`) queues the copy.
  private let copies: CacheCopies

  init(count: Int, copies: CacheCopies) {
    table = SlotTable(count: count)
    self.copies = copies
  }

  /// Takes a slot for `prompt`, waiting for one to be free.
  /// - Returns: its index and what its cache holds (after a copy it queued, where the table
  ///   chose one).
  /// - Throws: `EngineError.Code.cancelled` when `flag` is cancelled meanwhile.
  func take(for prompt: [Token], cancellation flag: CancellationFlag) throws -> SlotTable.Taken {
    condition.lock()
    defer { condition.unlock() }
    let ticket = nextTicket
    nextTicket += 1
    waiting.append(ticket)
    defer {
      waiting.removeAll { $0 == ticket }
      condition.broadcast()
    }
    while true {
      if flag.isCancelled { throw EngineError(.cancelled, "cancelled while waiting for a free slot") }
      if waiting.first == ticket, let taken = table.take(for: prompt) {
        // Under the lock: before whoever takes the source slot next can change it.
        if let source = taken.copiedFrom { copies.queue(from: source, to: taken.index) }
        return taken
      }
      // The flag calls no one back when it turns: look at it again every 50 ms.
      _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
    }
  }

  /// Gives slot `index` back, its cache holding `tokens` evaluated up to `boundaries`.
  func release(_ index: Int, tokens: [Token], boundaries: PartBoundaries) {
    condition.withLock {
      table.release(index, tokens: tokens, boundaries: boundaries)
      condition.broadcast()
    }
  }

  /// Slots running a request now.
  var busyCount: Int { condition.withLock { table.busyCount } }

  /// Requests waiting for a slot now.
  var waitingCount: Int { condition.withLock { waiting.count } }
}
