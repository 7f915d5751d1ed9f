import Foundation
import ModelStore

/// What a command may touch: its environment, its outputs and the model store.
///
/// Commands receive it instead of reaching for globals, so tests run them in-process with
/// captured output, a temporary model store and a controlled environment.
struct CommandContext: Sendable {
  /// The process environment (or a test's).
  var environment: [String: String]
  /// Where results go.
  var standardOutput: TextOutput
  /// Where progress, notes and errors go.
  var standardError: TextOutput
  /// Where models are found and pulled to.
  var modelStore: ModelStore

  /// The context of the running `fm` process.
  static func process() -> CommandContext {
    let environment = DefaultModelFile.applying(to: ProcessInfo.processInfo.environment)
    TerminalAppearance.load(environment: environment)
    return CommandContext(
      environment: environment,
      standardOutput: .fileDescriptor(STDOUT_FILENO, environment: environment),
      standardError: .fileDescriptor(STDERR_FILENO, environment: environment),
      modelStore: ModelStore(environment: environment))
  }
}
