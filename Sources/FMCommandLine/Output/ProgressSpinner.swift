import Foundation

/// A spinner with a message on standard error ("⠋ loading qwen2.5-coder-1.5b…"), shown only
/// on a terminal, erased when the work is done.
///
/// The message may change while it spins.
final class ProgressSpinner: Sendable {
  private let task: Task<Void, Never>?
  private let output: TextOutput

  /// Starts spinning `message` on `output` when it is a terminal.
  convenience init(_ message: String, output: TextOutput) {
    self.init(output: output) { message }
  }

  /// Starts spinning on `output` when it is a terminal, asking `message` for the text on
  /// every frame (ten times a second).
  init(output: TextOutput, message: @escaping @Sendable () -> String) {
    self.output = output
    guard output.isTerminal else {
      task = nil
      return
    }
    task = Task {
      let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
      var index = 0
      while !Task.isCancelled {
        output.write("\r\u{1B}[K\(output.styled(String(frames[index % frames.count]), .yellow)) \(message())")
        index += 1
        try? await Task.sleep(for: .milliseconds(100))
      }
    }
  }

  /// Stops and erases the spinner.
  func stop() async {
    guard let task else { return }
    task.cancel()
    await task.value
    output.write("\r\u{1B}[K")
  }

  /// Runs `work` with the spinner showing.
  static func during<Value>(
    _ message: String, output: TextOutput, _ work: () async throws -> Value
  ) async rethrows -> Value {
    let spinner = ProgressSpinner(message, output: output)
    do {
      let value = try await work()
      await spinner.stop()
      return value
    } catch {
      await spinner.stop()
      throw error
    }
  }
}
