/// A wrong command line: `fm` prints the message on one line and exits with `ExitCode.usage`.
struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong, and where to look, in one line.
  let message: String

  init(_ message: String) {
    self.message = message
  }

  var description: String { message }
}
