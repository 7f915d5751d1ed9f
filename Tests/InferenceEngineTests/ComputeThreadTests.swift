import Foundation
import Synchronization
import Testing

@testable import InferenceEngine

@Suite struct ComputeThreadTests {
  /// Work from many threads at once runs on one thread, none of theirs, one item at a time,
  /// and each caller gets its own result.
  @Test func workFromManyThreadsRunsOnOneThread() {
    let seen = Mutex<(threads: Set<UInt>, callers: Set<UInt>, running: Int, overlapped: Bool)>(([], [], 0, false))
    DispatchQueue.concurrentPerform(iterations: 16) { index in
      seen.withLock { _ = $0.callers.insert(UInt(pthread_self())) }
      let result = ComputeThread.run { () -> Int in
        seen.withLock {
          $0.threads.insert(UInt(pthread_self()))
          $0.running += 1
          if $0.running > 1 { $0.overlapped = true }
        }
        usleep(1_000)
        seen.withLock { $0.running -= 1 }
        return index * index
      }
      #expect(result == index * index)
    }
    let final = seen.withLock { $0 }
    #expect(final.threads.count == 1)
    #expect(final.threads.isDisjoint(with: final.callers))
    #expect(!final.overlapped)
  }

  /// Work that asks for the compute thread from the compute thread runs at once (it would
  /// wait for itself otherwise).
  @Test func workOnTheComputeThreadRunsNestedWorkAtOnce() {
    let finished = DispatchSemaphore(value: 0)
    let nested = Mutex(false)
    Thread.detachNewThread {
      let outer = ComputeThread.run { UInt(pthread_self()) }
      let inner = ComputeThread.run { ComputeThread.run { UInt(pthread_self()) } }
      nested.withLock { $0 = outer == inner }
      finished.signal()
    }
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(nested.withLock { $0 })
  }
}
