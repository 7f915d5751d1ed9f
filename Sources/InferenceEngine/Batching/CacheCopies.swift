import Synchronization

/// Copies of one slot's cache into another, queued where a slot is taken (`SlotPool`) and
/// carried out on the scheduler's thread, the only one that touches the context, before the
/// removals and rows of its next decode.
///
/// Why a queue of its own: the copy must be queued before any request that takes the source
/// slot next can queue an evaluation that changes the copied prefix (a request running on the
/// source when it is queued keeps that prefix), so it is queued under the pool's lock;
/// the scheduler holds its own lock while it asks the pool how many slots are busy, so the
/// pool must not take the scheduler's lock. This one takes no other lock while it is held.
final class CacheCopies: Sendable {
  private let queued = Mutex<[(from: Int32, to: Int32)]>([])

  /// Queues a copy of slot `from`'s whole cache into slot `to`.
  func queue(from source: Int, to destination: Int) {
    queued.withLock { $0.append((Int32(source), Int32(destination))) }
  }

  /// The copies queued so far, oldest first; the queue is empty after.
  func take() -> [(from: Int32, to: Int32)] {
    queued.withLock { queued in
      defer { queued.removeAll() }
      return queued
    }
  }
}
