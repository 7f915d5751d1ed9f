import Synchronization

/// What a slot taken for a request needs done to the shared cache first — the cache it held
/// saved to host memory, another slot's cache copied into it, or a saved one restored — queued
/// where the slot is taken (`SlotPool`) and carried out in that order on the scheduler's thread,
/// the only one that touches the context, before the removals and rows of its next decode.
///
/// Why a queue of its own: a copy must be queued before any request that takes the source slot
/// next can queue an evaluation that changes the copied prefix (a request running on the source
/// when it is queued keeps that prefix), so it is queued under the pool's lock; the scheduler
/// holds its own lock while it asks the pool how many slots are busy, so the pool must not take
/// the scheduler's lock. This one takes no other lock while it is held.
final class CacheOperations: Sendable {
  enum Operation: Equatable {
    /// Slot `from`'s whole cache into slot `to`.
    case copy(from: Int32, to: Int32)
    /// Slot `slot`'s cache into host memory, as saved prefix `id` (`SlotTable.SavedPrefix`).
    case save(slot: Int32, id: Int)
    /// Saved prefix `id` into slot `slot`, in place of what it held.
    case restore(id: Int, slot: Int32)
    /// Saved prefix `id` is no longer kept.
    case drop(id: Int)
  }

  private let queued = Mutex<[Operation]>([])

  /// Queues what taking a slot as `taken` needs done: the save, then the copy or restore, then
  /// the drops.
  func queue(_ taken: SlotTable.Taken) {
    let slot = Int32(taken.index)
    var operations: [Operation] = []
    if let id = taken.saved { operations.append(.save(slot: slot, id: id)) }
    if let source = taken.copiedFrom { operations.append(.copy(from: Int32(source), to: slot)) }
    if let id = taken.restoredFrom { operations.append(.restore(id: id, slot: slot)) }
    operations += taken.dropped.map { .drop(id: $0) }
    queue(operations)
  }

  /// Queues `operations`, in that order.
  func queue(_ operations: [Operation]) {
    queued.withLock { $0 += operations }
  }

  /// The operations queued so far, oldest first; the queue is empty after.
  func take() -> [Operation] {
    queued.withLock { queued in
      defer { queued.removeAll() }
      return queued
    }
  }
}
