import Foundation

/// The slots of a `BatchedModel` that requests take and give back, with a queue of requests
/// waiting for one when all are busy: the one place where a batched model's requests are
/// admitted, made to wait, or refused.
///
/// Waiters are served in the order they came, each on the slot `SlotTable` chooses for its
/// prompt when its turn comes. With a `queueLimit`, a request that would wait behind that many
/// others is refused at once (`EngineError.Code.queueFull`): the server that set the bound
/// answers 503 for it, before its response has begun. Without one, every request waits.
final class SlotPool: @unchecked Sendable {
  /// Guards `table`, `waiting` and `nextTicket`; waiters wait on it.
  private let condition = NSCondition()
  private var table: SlotTable
  private var waiting: [Int] = []
  private var nextTicket = 0
  /// The most requests that wait while every slot is busy; nil for no bound.
  let queueLimit: Int?
  /// Where a slot taken queues what it needs done to the cache first (`SlotTable.Taken`).
  private let operations: CacheOperations

  /// - Parameter savedTokenLimit: the most tokens of slots taken for other requests kept in host
  ///   memory (`SlotTable.savedTokenLimit`).
  init(count: Int, queueLimit: Int? = nil, savedTokenLimit: Int = 0, operations: CacheOperations) {
    table = SlotTable(count: count, savedTokenLimit: savedTokenLimit)
    self.queueLimit = queueLimit
    self.operations = operations
  }

  /// Takes a slot for `prompt`, waiting for one to be free.
  /// - Returns: its index and what its cache holds (after the copy or restore it queued, where
  ///   the table chose one).
  /// - Throws: `EngineError.Code.queueFull` at once when the request would wait behind
  ///   `queueLimit` others; `EngineError.Code.cancelled` when `flag` is cancelled meanwhile.
  func take(for prompt: [Token], cancellation flag: CancellationFlag) throws -> SlotTable.Taken {
    condition.lock()
    defer { condition.unlock() }
    // The free slots go to the first waiters (who may not have woken yet to take them); the
    // rest of the queue is what this request would wait behind.
    if let queueLimit, waiting.count - table.freeCount >= queueLimit {
      throw EngineError(
        .queueFull, "all \(table.slots.count) slots are busy and \(queueLimit) requests are waiting for one")
    }
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
        operations.queue(taken)
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
