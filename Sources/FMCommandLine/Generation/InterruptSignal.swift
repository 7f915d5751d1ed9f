import Dispatch
import Foundation

/// Turns Ctrl+C (SIGINT) into cancelling a task, so a reply stops cleanly instead of the
/// process dying mid-write.
final class InterruptSignal: @unchecked Sendable {  // DispatchSource is thread-safe.
  private let source: any DispatchSourceSignal

  /// Calls `handler` on each SIGINT until `stop()`.
  init(_ handler: @escaping @Sendable () -> Void) {
    signal(SIGINT, SIG_IGN)
    source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler(handler: handler)
    source.resume()
  }

  /// Restores the default Ctrl+C behaviour.
  func stop() {
    source.cancel()
    signal(SIGINT, SIG_DFL)
  }
}

extension InterruptSignal {
  /// Runs `work` in a task that Ctrl+C cancels, and returns its result.
  /// - Throws: `CancellationError` when interrupted (exit 130), or what `work` throws.
  static func cancellingOnInterrupt<Result: Sendable>(
    _ work: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    let task = Task { try await work() }
    let interrupt = InterruptSignal { task.cancel() }
    defer { interrupt.stop() }
    return try await task.value
  }
}
