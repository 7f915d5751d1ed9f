import Dispatch
import Foundation
import Synchronization
import Testing

@testable import InferenceEngine

/// The slot pool's admission: a request runs on a free slot, waits in the queue for one, or,
/// past the queue's bound, is refused at once; a cancelled waiter leaves the queue (no model
/// needed).
@Suite struct SlotPoolTests {
  /// A `take` on a thread of its own, as a session's backend calls it.
  final class Taker: Sendable {
    private let outcome = Mutex<Result<Int, EngineError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ pool: SlotPool, prompt: [Token] = [], cancellation flag: CancellationFlag = CancellationFlag()) {
      Thread { [self] in
        let result: Result<Int, EngineError>
        do {
          result = .success(try pool.take(for: prompt, cancellation: flag).index)
        } catch let error as EngineError {
          result = .failure(error)
        } catch {
          result = .failure(EngineError(.invalidRequest, "\(error)"))
        }
        outcome.withLock { $0 = result }
        done.signal()
      }.start()
    }

    /// What `take` came to, once it returned; nil if it is still waiting after `seconds`.
    func result(within seconds: Double = 10) -> Result<Int, EngineError>? {
      guard done.wait(timeout: .now() + seconds) == .success else { return nil }
      done.signal()
      return outcome.withLock { $0 }
    }
  }

  /// Waits (up to 10 s) until `condition` holds.
  func eventually(_ condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(10)
    while !condition(), Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
  }

  @Test func aFullQueueRefusesAtOnceAndAFreedSlotGoesToTheWaiter() throws {
    let pool = SlotPool(count: 1, queueLimit: 1, operations: CacheOperations())
    let running = try pool.take(for: [1, 2], cancellation: CancellationFlag())
    #expect(pool.busyCount == 1)
    let waiter = Taker(pool, prompt: [3, 4])
    eventually { pool.waitingCount == 1 }
    #expect(pool.waitingCount == 1)
    #expect(waiter.result(within: 0.1) == nil, "the queue has room: the request waits")
    #expect(throws: EngineError(.queueFull, "all 1 slots are busy and 1 requests are waiting for one")) {
      try pool.take(for: [5], cancellation: CancellationFlag())
    }
    #expect(pool.waitingCount == 1, "a refused request does not join the queue")
    pool.release(running.index, tokens: [1, 2], boundaries: PartBoundaries())
    guard case .success(let index)? = waiter.result() else {
      Issue.record("the waiter did not get the freed slot: \(String(describing: waiter.result(within: 0)))")
      return
    }
    #expect(index == running.index)
    #expect(pool.waitingCount == 0 && pool.busyCount == 1)
  }

  /// A queue of 0: a request runs when a slot is free, and is refused when none is.
  @Test func aQueueOfZeroAdmitsOnlyWhatRunsAtOnce() throws {
    let pool = SlotPool(count: 2, queueLimit: 0, operations: CacheOperations())
    let first = try pool.take(for: [1], cancellation: CancellationFlag())
    _ = try pool.take(for: [2], cancellation: CancellationFlag())
    #expect(throws: EngineError.self) { try pool.take(for: [3], cancellation: CancellationFlag()) }
    pool.release(first.index, tokens: [1], boundaries: PartBoundaries())
    #expect(try pool.take(for: [3], cancellation: CancellationFlag()).index == first.index)
  }

  @Test func aCancelledWaiterLeavesTheQueue() throws {
    let pool = SlotPool(count: 1, queueLimit: 1, operations: CacheOperations())
    let running = try pool.take(for: [1], cancellation: CancellationFlag())
    let flag = CancellationFlag()
    let waiter = Taker(pool, cancellation: flag)
    eventually { pool.waitingCount == 1 }
    flag.cancel()
    guard case .failure(let error)? = waiter.result() else {
      Issue.record("the cancelled waiter did not return with an error")
      return
    }
    #expect(error.code == .cancelled)
    #expect(pool.waitingCount == 0)
    // Its place is free again: the next request may wait.
    let next = Taker(pool)
    eventually { pool.waitingCount == 1 }
    pool.release(running.index, tokens: [1], boundaries: PartBoundaries())
    #expect(next.result().map { (try? $0.get()) != nil } == true)
  }

  /// Without a bound, every request waits: the engine used outside a server never refuses.
  @Test func withoutABoundEveryRequestWaits() throws {
    let pool = SlotPool(count: 1, operations: CacheOperations())
    let running = try pool.take(for: [1], cancellation: CancellationFlag())
    let waiters = (0..<5).map { _ in Taker(pool) }
    eventually { pool.waitingCount == 5 }
    #expect(pool.waitingCount == 5)
    for _ in waiters {
      // Each release hands the one slot to the next waiter.
      pool.release(running.index, tokens: [], boundaries: PartBoundaries())
      eventually { pool.busyCount == 1 }
    }
    for waiter in waiters { #expect(waiter.result().map { (try? $0.get()) != nil } == true) }
    #expect(pool.waitingCount == 0)
  }
}
