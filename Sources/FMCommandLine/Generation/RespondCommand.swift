import Foundation
import FoundationModels

/// `fm respond "prompt"`: streams one answer to standard output, for scripts.
enum RespondCommand: Subcommand {
  static let name = "respond"
  static let abstract = "Answer one prompt, streaming the reply to standard output."
  static let synopsis = "[PROMPT]"
  static let discussion = """
    When standard input is not a terminal, all of it is the prompt (placed before PROMPT).
    Ctrl+C stops the reply (exit 130). --verbose prints token counts and speed on standard error.
    """
  static let options: [CommandLineOption] =
    ModelOptions.options + [
      .option("--instructions", "-i", value: "TEXT", help: "instructions for the session"),
      .flag("--verbose", "-v", help: "print usage statistics on standard error"),
    ]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let settings = try ModelOptions(arguments, environment: context.environment)
    let prompt = try PromptInput.read(arguments.positionals, context: context)
    let session = LanguageModelSession(model: settings.model, instructions: arguments.value("--instructions"))
    let response = try await InterruptSignal.cancellingOnInterrupt {
      var printed = ""
      let stream = session.streamResponse(to: prompt, options: settings.generation)
      for try await snapshot in stream {
        context.standardOutput.write(String(snapshot.content.dropFirst(printed.count)))
        printed = snapshot.content
      }
      context.standardOutput.line()
      return try await stream.collect()
    }
    if arguments.flag("--verbose") {
      context.standardError.line(UsageLine.describe(response.usage))
    }
    return .success
  }
}

/// Where a one-shot prompt comes from: the arguments, standard input, or both.
enum PromptInput {
  static func read(_ positionals: [String], context: CommandContext) throws -> String {
    var parts: [String] = []
    if isatty(STDIN_FILENO) == 0 {
      let piped = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
      if !piped.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parts.append(piped) }
    }
    parts.append(contentsOf: positionals)
    guard !parts.isEmpty else { throw UsageError("no prompt: give one as an argument or on standard input") }
    return parts.joined(separator: "\n\n")
  }
}

/// The one-line statistics printed by `--verbose`.
enum UsageLine {
  static func describe(_ usage: LanguageModelSession.Usage) -> String {
    let evaluated = usage.inputTokens - usage.cachedInputTokens
    var line = String(
      format: "prompt %d tokens (%d evaluated, %d cached) · generated %d tokens · first token %.2f s · %.1f tokens/s",
      usage.inputTokens, evaluated, usage.cachedInputTokens, usage.outputTokens, usage.timeToFirstToken,
      usage.tokensPerSecond)
    if usage.forcedTokens > 0 { line += " · \(usage.forcedTokens) forced" }
    if usage.draftTokens > 0 { line += " · drafts \(usage.confirmedDraftTokens)/\(usage.draftTokens) confirmed" }
    return line
  }
}
