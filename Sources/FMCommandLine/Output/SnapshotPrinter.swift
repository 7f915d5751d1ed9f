/// Prints a streamed reply: snapshots are cumulative, so only what is new is written.
///
/// A turn that calls tools answers in a new response after them; its text starts a new paragraph.
/// A thinking model's thinking (the turn's reasoning entries) is printed dimmed before its answer.
struct SnapshotPrinter {
  let output: TextOutput
  /// Everything written so far.
  private(set) var printed = ""
  /// The current response's text so far.
  private var current = ""
  /// The thinking printed so far.
  private var thought = ""

  init(output: TextOutput) { self.output = output }

  /// Shows a snapshot's thinking (its reasoning entries' text) and its content.
  mutating func show(_ content: String, thinking: String = "") {
    if thinking.count > thought.count, thinking.hasPrefix(thought) {
      write(output.styled(String(thinking.dropFirst(thought.count)), .dim))
      thought = thinking
    }
    guard content != current else { return }
    if !content.hasPrefix(current) || (current.isEmpty && !thought.isEmpty && !printed.hasSuffix("\n\n")) {
      let separator = printed.isEmpty ? "" : printed.hasSuffix("\n") ? "\n" : "\n\n"
      write(separator)
      current = ""
    }
    write(String(content.dropFirst(current.count)))
    current = content
  }

  private mutating func write(_ text: String) {
    output.write(text)
    printed += text
  }
}
