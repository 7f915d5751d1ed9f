import Dispatch
import Foundation

@testable import InferenceEngine

/// One slot's evaluation handed to a `BatchScheduler` from a thread of its own, as a session's
/// backend hands it over, and blocked there until the scheduler answers it.
final class SlotThread: @unchecked Sendable {
  let evaluation: BatchEvaluation
  private let returned = DispatchSemaphore(value: 0)
  private let buffers: [UnsafeMutableBufferPointer<Float>]

  /// Starts the thread; `tokens` go to `sequence` from `startPosition`.
  init(
    _ scheduler: BatchScheduler, sequence: Int32, tokens: [Token], startPosition: Int = 0, outputs: Int = 1,
    candidates: [[Token]]? = nil, limit: Int = 1024, cancellation: CancellationFlag = CancellationFlag()
  ) {
    buffers = (0..<BatchedSlotBackend.maximumOutputs).map { _ in
      let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 2)
      buffer.initialize(repeating: .nan)
      return buffer
    }
    evaluation = BatchEvaluation(
      sequence: sequence, tokens: tokens, startPosition: startPosition, outputs: outputs, candidates: candidates,
      limit: limit, cancellation: cancellation, logits: buffers)
    let evaluation = evaluation
    let returned = returned
    Thread {
      scheduler.evaluate(evaluation)
      returned.signal()
    }.start()
  }

  deinit {
    // The scheduler writes into the buffers until it answers; one that never did (a failed
    // test) keeps them.
    guard returned.wait(timeout: .now() + 10) == .success else { return }
    for buffer in buffers { buffer.deallocate() }
  }

  /// Waits until `evaluate` returned; false after `seconds`.
  func waitReturned(seconds: Double = 10) -> Bool {
    guard returned.wait(timeout: .now() + seconds) == .success else { return false }
    returned.signal()
    return true
  }

  /// Whether `evaluate` has returned, without waiting.
  var hasReturned: Bool { waitReturned(seconds: 0) }

  /// The first two floats of output `index`'s logits.
  func logits(_ index: Int = 0) -> [Float] { Array(buffers[index]) }
}
