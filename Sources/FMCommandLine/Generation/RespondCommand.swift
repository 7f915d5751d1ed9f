import Foundation
import FoundationModels

/// `fm respond "prompt"`: streams one answer to standard output, for scripts. Takes the
/// options of Apple's `fm respond` on macOS 27 beside its own (`AppleRespondOptions`).
enum RespondCommand: Subcommand {
  static let name = "respond"
  static let abstract = "Answer one prompt, streaming the reply to standard output."
  static let synopsis = "[PROMPT]"
  static let discussion = """
    When standard input is not a terminal, all of it is the prompt (placed before PROMPT); each
    --text is a further segment. Ctrl+C stops the reply (exit 130). A prompt or reply the
    guardrails block exits with 3 and says which side and category on standard error. --verbose
    prints token counts and speed on standard error. --schema answers with JSON that satisfies
    the schema (as 'fm generate'); --use-case content-tagging with comma-separated tags.
    """
  static let options: [CommandLineOption] =
    ModelOptions.options + ModelOptions.endpointOptions + ToolChoice.options + AppleRespondOptions.options + [
      .option("--instructions", "-i", value: "TEXT", help: "instructions for the session"),
      .flag("--verbose", "-v", help: "print usage statistics on standard error"),
    ]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let useCase = try AppleRespondOptions.useCase(arguments)
    let settings = try ModelOptions(
      arguments, environment: context.environment, useCase: useCase,
      guardrails: try AppleRespondOptions.guardrails(arguments))
    let prompt = try AppleRespondOptions.prompt(arguments)
    let tools = arguments.flag("--tools") ? BuiltInTools.all(context: context) : []
    var generation = settings.generation
    generation.toolCallingMode = try ToolChoice(arguments)?.mode
    let options = generation
    let session = try await settings.session(
      arguments, environment: context.environment, tools: tools, instructions: arguments.value("--instructions"),
      transcript: try arguments.value("--load-transcript").map(TranscriptFile.read))
    let stream = !arguments.flag("--no-stream")
    let usage: String
    if let path = arguments.value("--schema") {
      let response = try await GenerateCommand.answer(
        prompt, schema: try GenerateCommand.schema(at: path, openObjects: false), session: session,
        options: options, includeSchemaInPrompt: true, stream: stream && context.standardOutput.isTerminal,
        context: context)
      usage = UsageLine.describe(response)
    } else if useCase == .contentTagging {
      let schema = try GenerationSchema(jsonSchema: AppleRespondOptions.tagsSchema)
      let response = try await InterruptSignal.cancellingOnInterrupt {
        try await session.respond(to: prompt, schema: schema, includeSchemaInPrompt: false, options: options)
      }
      context.standardOutput.line(try response.content.value([String].self).joined(separator: ", "))
      usage = UsageLine.describe(response)
    } else {
      let response = try await InterruptSignal.cancellingOnInterrupt {
        let responses = session.streamResponse(to: prompt, options: options)
        var printer = SnapshotPrinter(output: context.standardOutput)
        for try await snapshot in responses where stream { printer.show(snapshot.content) }
        let response = try await responses.collect()
        if !stream { printer.show(response.content) }
        context.standardOutput.line()
        return response
      }
      usage = UsageLine.describe(response)
    }
    if let path = arguments.value("--save-transcript") { try TranscriptFile.write(session.transcript, to: path) }
    if arguments.flag("--verbose") { context.standardError.line(usage) }
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
