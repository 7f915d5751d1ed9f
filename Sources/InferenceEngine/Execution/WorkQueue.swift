import Dispatch

/// A serial queue of blocking work for one llama.cpp context.
///
/// llama.cpp calls block for milliseconds to seconds. Running them on Swift's cooperative pool
/// would starve other tasks, so every call for a context runs here, one at a time, on a thread
/// that Dispatch owns.
final class WorkQueue: Sendable {
  private let queue: DispatchQueue
  private let key = DispatchSpecificKey<Void>()

  init(label: String) {
    queue = DispatchQueue(label: label, qos: .userInitiated)
    queue.setSpecific(key: key, value: ())
  }

  /// Runs `work` on the queue after the work before it, and waits for it; on the queue itself
  /// it runs at once.
  func runAndWait(_ work: () -> Void) {
    if DispatchQueue.getSpecific(key: key) != nil { return work() }
    queue.sync(execute: work)
  }

  /// Runs `work` on the queue and returns its result to the awaiting task.
  func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
      queue.async {
        continuation.resume(with: Swift.Result(catching: work))
      }
    }
  }

  /// Starts `work` on the queue without waiting for it.
  func start(_ work: @escaping @Sendable () -> Void) {
    queue.async(execute: work)
  }
}
