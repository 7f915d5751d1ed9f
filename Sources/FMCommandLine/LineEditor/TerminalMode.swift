import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Switches a terminal between its original settings and the two modes the chat needs, and
/// always puts the original settings back.
///
/// - `editing`: raw input for the line editor (no echo, no line buffering, no signals: Ctrl+C
///   and Ctrl+Z arrive as keys) with bracketed paste on.
/// - `replying`: no echo and no line buffering, but signals on, so Ctrl+C raises SIGINT and
///   stops the reply, while keys typed ahead wait, unechoed, for the next line.
///
/// `restore()` is safe to call from any thread and more than once (signal handlers and `deinit`
/// both call it).
final class TerminalMode: Sendable {
  enum Mode { case original, editing, replying }

  private let descriptor: Int32
  private let outputDescriptor: Int32
  private let original: termios
  /// The mode the terminal is in; its lock also keeps two switches from interleaving.
  private let current = Mutex(Mode.original)

  /// Reads the settings of `descriptor`; nil when it is not a terminal.
  /// - Parameter outputDescriptor: where the bracketed-paste switches are written.
  init?(descriptor: Int32 = STDIN_FILENO, outputDescriptor: Int32 = STDOUT_FILENO) {
    var settings = termios()
    guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return nil }
    self.descriptor = descriptor
    self.outputDescriptor = outputDescriptor
    original = settings
  }

  deinit {
    restore()
  }

  /// Enters `mode` (no-op when already there).
  func set(_ mode: Mode) {
    current.withLock { current in
      guard mode != current else { return }
      apply(mode, leaving: current)
      current = mode
    }
  }

  /// Switches the terminal's settings from `previous` to `mode`.
  private func apply(_ mode: Mode, leaving previous: Mode) {
    var settings = original
    switch mode {
    case .original:
      break
    case .editing:
      // Like cfmakeraw, but output processing stays on so "\n" still returns the carriage.
      settings.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
      settings.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
      settings.c_cflag |= tcflag_t(CS8)
    case .replying:
      settings.c_lflag &= ~tcflag_t(ECHO | ICANON)
    }
    withUnsafeMutablePointer(to: &settings.c_cc) { pointer in
      pointer.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
        cc[Int(VMIN)] = 1
        cc[Int(VTIME)] = 0
      }
    }
    if mode == .original { settings = original }
    // TCSADRAIN rather than TCSAFLUSH: input typed ahead must survive the switch.
    tcsetattr(descriptor, TCSADRAIN, &settings)
    if mode == .editing { write("\u{1B}[?2004h") } else if previous == .editing { write("\u{1B}[?2004l") }
  }

  /// Puts the terminal back as it was found.
  func restore() {
    set(.original)
  }

  private func write(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBufferPointer { Glibc.write(outputDescriptor, $0.baseAddress, $0.count) }
  }

  /// The terminal's width in columns (80 when it cannot be read).
  static func columns(of descriptor: Int32 = STDOUT_FILENO) -> Int {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }
}
