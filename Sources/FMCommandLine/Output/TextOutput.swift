import Foundation

/// A place `fm` writes text to: standard output, standard error, or a buffer in tests.
///
/// Writes go straight to the file descriptor (no buffering), so streamed text and progress
/// appear as they are produced and the two streams never interleave out of order.
struct TextOutput: Sendable {
  /// Whether the destination is an interactive terminal (chrome, progress bars, colour).
  let isTerminal: Bool
  /// Whether ANSI colour may be used: a terminal, `NO_COLOR` unset or empty, `TERM` not `dumb`.
  let colorEnabled: Bool
  private let sink: @Sendable (String) -> Void

  /// Creates an output that hands every write to `sink`.
  init(isTerminal: Bool, colorEnabled: Bool, sink: @escaping @Sendable (String) -> Void) {
    self.isTerminal = isTerminal
    self.colorEnabled = colorEnabled
    self.sink = sink
  }

  /// An output over a file descriptor of this process, colour decided by `environment`.
  static func fileDescriptor(_ descriptor: Int32, environment: [String: String]) -> TextOutput {
    let isTerminal = isatty(descriptor) == 1
    // https://no-color.org: any non-empty NO_COLOR disables colour.
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    let dumb = environment["TERM"] == "dumb"
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
    return TextOutput(isTerminal: isTerminal, colorEnabled: isTerminal && !noColor && !dumb) { text in
      handle.write(Data(text.utf8))
    }
  }

  /// Writes `text` as it is.
  func write(_ text: String) { sink(text) }

  /// Writes `text` and a newline.
  func line(_ text: String = "") { sink(text + "\n") }

  /// `text` wrapped in the style's escape codes, or unchanged when colour is off.
  func styled(_ text: String, _ style: TerminalStyle) -> String {
    colorEnabled ? style.apply(to: text) : text
  }
}
