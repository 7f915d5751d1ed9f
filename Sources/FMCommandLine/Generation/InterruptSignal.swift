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
