import CLlama
import Foundation
import Synchronization

/// Process-wide llama.cpp set-up: backend initialisation and log capture.
///
/// llama.cpp logs to stderr by default, which would scribble over a terminal chat. Its messages
/// are kept instead, so that a failed load can say *why* (llama.cpp reports the reason only
/// through its log). Set `FM_LLAMA_LOG=1` to see them on stderr as well.
enum LlamaRuntime {
  private static let recentMessages = Mutex<[String]>([])
  private static let echo = ProcessInfo.processInfo.environment["FM_LLAMA_LOG"] == "1"

  /// Initialises the backend once; every entry point that touches llama.cpp calls this first.
  static let initialize: Void = {
    llama_log_set(
      { level, text, _ in
        guard let text else { return }
        let message = String(cString: text)
        if LlamaRuntime.echo { FileHandle.standardError.write(Data(message.utf8)) }
        // Continuation lines carry no level of their own; keep warnings, errors and their tails.
        guard level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN || level == GGML_LOG_LEVEL_CONT
        else { return }
        LlamaRuntime.recentMessages.withLock { messages in
          messages.append(message)
          if messages.count > 64 { messages.removeFirst(messages.count - 64) }
        }
      }, nil)
    // llama_backend_init: must run once before any model is loaded.
    llama_backend_init()
  }()

  /// Runs `body` and returns its result with the warnings and errors llama.cpp logged meanwhile.
  static func capturingLog<T>(_ body: () throws -> T) rethrows -> (T, String) {
    _ = initialize
    recentMessages.withLock { $0.removeAll() }
    let result = try body()
    let log = recentMessages.withLock { messages in
      messages.joined().trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return (result, log)
  }
}
