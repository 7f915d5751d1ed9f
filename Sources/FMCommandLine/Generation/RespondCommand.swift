import Foundation
import FoundationModels

/// `fm respond "prompt"`: streams one answer to standard output, for scripts.
enum RespondCommand: Subcommand {
  static let name = "respond"
  static let abstract = "Answer one prompt, streaming the reply to standard output."
  static let synopsis = "[PROMPT]"
  static let discussion = """
    When standard input is not a terminal, all of it is the prompt (placed before PROMPT).
    Ctrl+C stops the reply (exit 130). A prompt or reply the guardrails block exits with 3 and says
    which side and category on standard error. --verbose prints token counts and speed on standard error.
    """
  static let options: [CommandLineOption] =
    ModelOptions.options + ModelOptions.endpointOptions + ToolChoice.options + [
      .option("--instructions", "-i", value: "TEXT", help: "instructions for the session"),
      .flag("--verbose", "-v", help: "print usage statistics on standard error"),
    ]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let settings = try ModelOptions(arguments, environment: context.environment)
    let prompt = try PromptInput.read(arguments.positionals, context: context)
    let tools = arguments.flag("--tools") ? BuiltInTools.all(context: context) : []
    var generation = settings.generation
    generation.toolCallingMode = try ToolChoice(arguments)?.mode
    let options = generation
    let session = try await settings.session(
      arguments, environment: context.environment, tools: tools, instructions: arguments.value("--instructions"))
    let response = try await InterruptSignal.cancellingOnInterrupt {
      var printer = SnapshotPrinter(output: context.standardOutput)
      let stream = session.streamResponse(to: prompt, options: options)
      for try await snapshot in stream { printer.show(snapshot.content) }
      context.standardOutput.line()
      return try await stream.collect()
    }
    if arguments.flag("--verbose") {
      context.standardError.line(UsageLine.describe(response))
    }
    return .success
  }
}

/// Where a one-shot prompt comes from: the arguments, standard input, or both.
enum PromptInput {
  /// The prompt: standard input (when it is not a terminal) before the arguments.
  /// - Throws: `UsageError` when there is none.
  static func read(_ positionals: [String], context: CommandContext) throws -> String {
    let parts = pieces(positionals)
    guard !parts.isEmpty else { throw UsageError("no prompt: give one as an argument or on standard input") }
    return parts.joined(separator: "\n\n")
  }

  /// Standard input's text (when it is not a terminal and holds any), then the arguments.
  static func pieces(_ positionals: [String]) -> [String] {
    var parts: [String] = []
    if isatty(STDIN_FILENO) == 0 {
      let piped = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
      if !piped.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parts.append(piped) }
    }
    return parts + positionals
  }
}

/// The one-line statistics printed by `--verbose`: the usage the model reported and, for the
/// local model, its timings and guided-generation figures.
enum UsageLine {
  static func describe(_ usage: LanguageModelSession.Usage, entries: some Collection<Transcript.Entry>) -> String {
    let input = usage.input
    let output = usage.output.totalTokenCount
    var line = String(
      format: "prompt %d tokens (%d evaluated, %d cached) · generated %d tokens", input.totalTokenCount,
      input.totalTokenCount - input.cachedTokenCount, input.cachedTokenCount, output)
    guard let figures = LocalModelFigures(entries) else { return line }
    line += String(
      format: " · first token %.2f s · %.1f tokens/s", figures.timeToFirstToken,
      figures.tokensPerSecond(outputTokens: output))
    if figures.forcedTokens > 0 { line += " · \(figures.forcedTokens) forced" }
    if figures.draftTokens > 0 { line += " · drafts \(figures.confirmedDraftTokens)/\(figures.draftTokens) confirmed" }
    return line
  }

  static func describe<Content>(_ response: LanguageModelSession.Response<Content>) -> String {
    describe(response.usage, entries: response.transcriptEntries)
  }
}
