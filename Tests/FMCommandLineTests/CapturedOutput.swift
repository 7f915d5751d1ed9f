import Synchronization

@testable import FMCommandLine

/// Text written to a `TextOutput` during a test.
final class CapturedOutput: Sendable {
  private let buffer = Mutex("")

  /// Everything written so far.
  var text: String { buffer.withLock { $0 } }

  /// An output that appends here, as if it were a pipe (no terminal, no colour).
  var output: TextOutput {
    TextOutput(isTerminal: false, colorEnabled: false) { text in self.buffer.withLock { $0 += text } }
  }
}
