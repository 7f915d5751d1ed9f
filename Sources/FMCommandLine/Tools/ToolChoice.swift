import FoundationModels

/// `--tool-choice`: whether the model must, may or must not call a tool, spelled as in
/// OpenAI's `tool_choice` (`auto`, `required`, `none`).
enum ToolChoice: String, Codable, CaseIterable, Sendable {
  case auto, required, none

  var mode: GenerationOptions.ToolCallingMode {
    switch self {
    case .auto: .allowed
    case .required: .required
    case .none: .disallowed
    }
  }

  /// The value of `--tool-choice`, or nil when it is not given.
  /// - Throws: `UsageError` for another word.
  init?(_ arguments: ParsedArguments) throws {
    guard let value = arguments.value("--tool-choice") else { return nil }
    guard let choice = ToolChoice(rawValue: value) else {
      throw UsageError("--tool-choice needs auto, required or none, not '\(value)'")
    }
    self = choice
  }

  static let options: [CommandLineOption] = [
    .flag("--tools", help: "let the model call the built-in tools (date and time, calculator, read a file here)"),
    .option("--tool-choice", value: "MODE", help: "auto | required (call a tool first) | none (default: auto)"),
  ]
}
