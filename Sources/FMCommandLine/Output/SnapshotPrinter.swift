/// Prints a streamed reply: snapshots are cumulative, so only what is new is written.
///
/// A turn that calls tools answers in a new response after them; its text starts a new paragraph.
struct SnapshotPrinter {
  let output: TextOutput
  /// Everything written so far.
  private(set) var printed = ""
  /// The current response's text so far.
  private var current = ""

  init(output: TextOutput) { self.output = output }

  mutating func show(_ content: String) {
    if !content.hasPrefix(current) {
      let separator = printed.hasSuffix("\n") ? "\n" : "\n\n"
      output.write(separator)
      printed += separator
      current = ""
    }
    let new = String(content.dropFirst(current.count))
    output.write(new)
    printed += new
    current = content
  }
}
