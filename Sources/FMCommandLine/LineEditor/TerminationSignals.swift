import Dispatch
import Foundation

/// Restores the terminal when the process is told to end (SIGTERM, SIGHUP, SIGQUIT), so a
/// killed chat never leaves the shell without echo.
final class TerminationSignals: @unchecked Sendable {  // DispatchSource is thread-safe.
  private let sources: [any DispatchSourceSignal]

  /// Calls `cleanUp`, then exits with 128 + the signal number, on each of the signals.
  init(_ cleanUp: @escaping @Sendable () -> Void) {
    sources = [SIGTERM, SIGHUP, SIGQUIT].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        cleanUp()
        exit(128 + number)
      }
      source.resume()
      return source
    }
  }

  /// Stops handling the signals.
  func stop() {
    for source in sources { source.cancel() }
    for number in [SIGTERM, SIGHUP, SIGQUIT] { signal(number, SIG_DFL) }
  }
}
