import Synchronization

/// The model work Ctrl+C stops: at most one reply (or summary) at a time.
///
/// One SIGINT handler lives for the whole chat and calls `interrupt()`; a press while nothing
/// runs does nothing (the line editor reads Ctrl+C as a key then, with signals off).
final class InterruptibleWork: Sendable {
  private let cancelCurrent = Mutex<(@Sendable () -> Void)?>(nil)

  /// Runs `operation` in a task that `interrupt()` cancels.
  func run<Value: Sendable>(_ operation: @escaping @Sendable () async -> Value) async -> Value {
    let task = Task { await operation() }
    cancelCurrent.withLock { $0 = { task.cancel() } }
    defer { cancelCurrent.withLock { $0 = nil } }
    return await task.value
  }

  /// Cancels the running work, if any.
  func interrupt() {
    cancelCurrent.withLock { $0 }?()
  }
}
