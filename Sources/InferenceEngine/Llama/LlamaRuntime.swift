import CLlama
import Foundation
import Synchronization

/// Process-wide llama.cpp set-up: backend initialisation and log capture.
///
/// llama.cpp logs to stderr by default, which would scribble over a terminal chat. Its messages
/// are kept instead, so that a failed load can say *why* (llama.cpp reports the reason only
/// through its log). Set `FM_LLAMA_LOG=1` to see them on stderr as well.
enum LlamaRuntime {
  /// What llama.cpp logged during one `capturingLog` call.
  struct Log {
    /// Warnings and errors, joined.
    var text = ""
    /// Tensors the CPU backend copied into its repacked layout while a model loaded (from its
    /// debug line "repack: repack tensor NAME with TYPE"); their mapped pages are never read
    /// again.
    var repackedTensors: [String] = []
  }

  private struct Capture {
    var messages: [String] = []
    var repackedTensors: [String] = []
  }

  private static let capture = Mutex(Capture())
  /// One capture at a time: the log is process-wide, so a context created on another thread
  /// while a model loads would otherwise reset (or take) the model's lines.
  private static let serial = Mutex(())
  private static let echo = ProcessInfo.processInfo.environment["FM_LLAMA_LOG"] == "1"

  /// Initialises the backend once; every entry point that touches llama.cpp calls this first.
  static let initialize: Void = {
    llama_log_set(
      { level, text, _ in
        guard let text else { return }
        let message = String(cString: text)
        if LlamaRuntime.echo { FileHandle.standardError.write(Data(message.utf8)) }
        if level == GGML_LOG_LEVEL_DEBUG, let name = LlamaRuntime.repackedTensorName(in: message) {
          LlamaRuntime.capture.withLock { $0.repackedTensors.append(name) }
          return
        }
        // Continuation lines carry no level of their own; keep warnings, errors and their tails.
        guard level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN || level == GGML_LOG_LEVEL_CONT
        else { return }
        LlamaRuntime.capture.withLock { capture in
          capture.messages.append(message)
          if capture.messages.count > 64 { capture.messages.removeFirst(capture.messages.count - 64) }
        }
      }, nil)
    // llama_backend_init: must run once before any model is loaded.
    llama_backend_init()
  }()

  /// The tensor named by the CPU backend's "repack: repack tensor NAME with TYPE" debug line.
  static func repackedTensorName(in message: String) -> String? {
    let prefix = "repack: repack tensor "
    guard message.hasPrefix(prefix) else { return nil }
    return message.dropFirst(prefix.count).split(separator: " ").first.map(String.init)
  }

  /// Runs `body` and returns its result with what llama.cpp logged meanwhile.
  static func capturingLog<T>(_ body: () throws -> T) rethrows -> (T, Log) {
    _ = initialize
    return try serial.withLock { _ in
      capture.withLock { $0 = Capture() }
      let result = try body()
      let log = capture.withLock { capture in
        Log(
          text: capture.messages.joined().trimmingCharacters(in: .whitespacesAndNewlines),
          repackedTensors: capture.repackedTensors)
      }
      return (result, log)
    }
  }
}
