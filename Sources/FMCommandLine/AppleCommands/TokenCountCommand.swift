import Foundation
import FoundationModels

/// `fm token-count [options] [TEXT]`, as Apple's `fm` on macOS 27 has it: the tokens the whole
/// context of a session would take, its instructions, a loaded transcript and the prompt, as
/// `SystemLanguageModel.tokenCount(for:)` counts transcript entries.
///
/// The prompt's segments are TEXT (after standard input when that is not a terminal), then each
/// `--text` in order; Apple's order of the two is not documented (inferred).
enum TokenCountCommand: Subcommand {
  static let name = "token-count"
  static let abstract = "Count the tokens of a prompt, with its instructions and transcript, in the model's context."
  static let synopsis = "[TEXT]"
  static let discussion = """
    Prints 'Token count: N' on a terminal, and the bare number when standard output is not one
    or with --quiet. TEXT (or standard input when it is not a terminal) and each --text are the
    prompt's segments; --instructions and --load-transcript add what a session would hold
    before it. --image is refused: no local model reads images.
    """
  static let options: [CommandLineOption] =
    ModelOptions.modelOptions + AppleRespondOptions.promptOptions + [
      .option("--instructions", "-i", value: "TEXT", help: "the session's instructions"),
      .flag("--quiet", "-q", help: "print the bare number"),
    ]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let model = try ModelOptions(arguments, environment: context.environment).model
    let texts = try AppleRespondOptions.segments(arguments)
    var entries = TranscriptFile.entries(
      try arguments.value("--load-transcript").map { Array(try TranscriptFile.read($0)) } ?? [],
      instructions: arguments.value("--instructions"))
    if !texts.isEmpty {
      entries.append(.prompt(Transcript.Prompt(segments: texts.map { .text(.init(content: $0)) })))
    }
    guard !entries.isEmpty else {
      throw UsageError("nothing to count: give TEXT, --text, --instructions or --load-transcript")
    }
    let count = try await model.tokenCount(for: entries)
    let bare = arguments.flag("--quiet") || !context.standardOutput.isTerminal
    context.standardOutput.line(bare ? "\(count)" : "Token count: \(count)")
    return .success
  }
}
