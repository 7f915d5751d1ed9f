import Foundation

/// Shows text that grows while it is generated: redrawn in place on a terminal, one line per
/// update when piped (so a consumer reads a stream of complete JSON lines).
struct LiveText {
  let output: TextOutput
  let isTerminal: Bool
  private var shownLines = 0

  init(output: TextOutput, isTerminal: Bool = isatty(STDOUT_FILENO) == 1) {
    self.output = output
    self.isTerminal = isTerminal
  }

  /// Replaces what was shown with `text`.
  mutating func show(_ text: String) {
    guard isTerminal else {
      output.line(text)
      return
    }
    // Move up over the previous rendering and clear it, then draw the new one.
    if shownLines > 0 { output.write("\u{1B}[\(shownLines)F\u{1B}[J") }
    output.line(text)
    shownLines = text.split(separator: "\n", omittingEmptySubsequences: false).count
  }
}
