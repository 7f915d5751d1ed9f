import Dispatch
import Foundation

/// The line editor on a real terminal: the thin shell around `LineEditorState`.
///
/// It reads bytes from standard input in raw mode (on its own thread, so a waiting read never
/// blocks Swift's cooperative pool), decodes them into keys, lets the state machine edit, and
/// draws with `LineRenderer`. Keys typed ahead during a reply are kept for the next line.
final class TerminalLineReader {
  private let terminal: TerminalMode
  private let output: TextOutput
  private let historyFile: LineHistoryFile?
  private var decoder = KeyDecoder()
  private var state: LineEditorState
  private var pending: [KeyEvent] = []
  private let readQueue = DispatchQueue(label: "fm.line-reader")

  /// - Parameters:
  ///   - terminal: the terminal standard input is on.
  ///   - output: where the line is drawn (the terminal).
  ///   - historyFile: where history is loaded from and appended to; nil to keep none.
  init(terminal: TerminalMode, output: TextOutput, historyFile: LineHistoryFile?) {
    self.terminal = terminal
    self.output = output
    self.historyFile = historyFile
    state = LineEditorState(history: historyFile?.load() ?? [])
  }

  /// Reads one line, showing `prompt` (of `promptWidth` visible columns).
  func readLine(prompt: String, promptWidth: Int) async -> LineInput {
    terminal.set(.editing)
    defer { terminal.set(.replying) }
    var renderer = LineRenderer(prompt: prompt, promptWidth: promptWidth)
    state.reset()
    output.write(renderer.render(text: state.buffer, cursor: state.cursor, width: TerminalMode.columns()))
    while true {
      if pending.isEmpty {
        guard let bytes = await readBytes() else {
          output.write(renderer.finish(text: state.buffer, width: TerminalMode.columns()))
          return .endOfInput
        }
        pending = decoder.decode(bytes)
        continue
      }
      let key = pending.removeFirst()
      let width = TerminalMode.columns()
      switch state.handle(key) {
      case .none:
        break
      case .redraw:
        output.write(renderer.render(text: state.buffer, cursor: state.cursor, width: width))
      case .clearScreen:
        output.write("\u{1B}[H\u{1B}[2J")
        renderer.forget()
        output.write(renderer.render(text: state.buffer, cursor: state.cursor, width: width))
      case .submit(let line):
        output.write(renderer.finish(text: state.buffer, width: width))
        state.reset()
        return .line(line)
      case .cancelLine:
        output.write(renderer.finish(text: state.buffer + Array("^C"), width: width))
        return .interrupt(lineWasEmpty: false)
      case .interruptHint:
        output.write(renderer.finish(text: Array("^C"), width: width))
        return .interrupt(lineWasEmpty: true)
      case .endOfInput:
        output.write(renderer.finish(text: state.buffer, width: width))
        return .endOfInput
      }
    }
  }

  /// Adds an entry to the history (and its file): a line, or a whole `"""` block, which the
  /// caller knows and the editor does not.
  func remember(_ entry: String) {
    guard !entry.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, state.history.last != entry else { return }
    historyFile?.append(entry)
    state.reset(recording: entry)
  }

  /// The next bytes from standard input, or nil at end of input.
  private func readBytes() async -> [UInt8]? {
    await withCheckedContinuation { continuation in
      readQueue.async {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
          if count < 0, errno == EINTR { continue }
          continuation.resume(returning: count > 0 ? Array(buffer.prefix(count)) : nil)
          return
        }
      }
    }
  }
}
