import Foundation
import FoundationModels

/// `fm generate --schema FILE "prompt"`: JSON that satisfies a JSON Schema, by constrained
/// decoding.
enum GenerateCommand: Subcommand {
  static let name = "generate"
  static let abstract = "Generate JSON that satisfies a JSON Schema (constrained decoding)."
  static let synopsis = "--schema FILE [PROMPT]"
  static let discussion = """
    The output always satisfies the schema: every token is checked against it while it is
    generated. Properties come in the order the schema lists them, and only the members the
    schema asks for are written (--open-objects also writes the members JSON Schema allows
    where an object has no additionalProperties). Keywords outside the supported set
    (docs/SCHEMAS.md) are an error that names them and where they are. With --stream,
    growing partial objects are printed as they are generated (one per line when piped);
    otherwise a terminal shows progress on standard error. --max-tokens stops generation in
    time to close the JSON validly. When standard input is not a terminal, all of it is the
    prompt (placed before PROMPT).
    """
  static let options: [CommandLineOption] =
    [
      .option("--schema", "-s", value: "FILE", help: "JSON Schema file the output must satisfy"),
      .flag("--stream", help: "print partial objects while generating"),
      .option("--instructions", "-i", value: "TEXT", help: "instructions for the session"),
      .flag("--no-schema-in-prompt", help: "do not describe the schema in the prompt (it still constrains)"),
      .flag("--open-objects", help: "also write members an object without additionalProperties does not declare"),
      .flag("--verbose", "-v", help: "print usage statistics on standard error"),
    ] + ModelOptions.options + ModelOptions.endpointOptions

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    guard let path = arguments.value("--schema") else { throw UsageError("'fm generate' needs --schema FILE") }
    let schema = try schema(at: path, openObjects: arguments.flag("--open-objects"))
    let settings = try ModelOptions(arguments, environment: context.environment)
    let prompt = try PromptInput.read(arguments.positionals, context: context)
    let session = try await settings.session(
      arguments, environment: context.environment, instructions: arguments.value("--instructions"))
    let response = try await answer(
      prompt, schema: schema, session: session, options: settings.generation,
      includeSchemaInPrompt: !arguments.flag("--no-schema-in-prompt"), stream: arguments.flag("--stream"),
      context: context)
    if arguments.flag("--verbose") { context.standardError.line(UsageLine.describe(response)) }
    return .success
  }

  /// The JSON Schema file at `path`.
  /// - Throws: `UsageError` when it cannot be read; the schema's own errors when it is not one.
  static func schema(at path: String, openObjects: Bool) throws -> GenerationSchema {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw UsageError("cannot read schema file '\(path)'")
    }
    return try GenerationSchema(
      jsonSchema: String(decoding: data, as: UTF8.self), generatesUndeclaredProperties: openObjects)
  }

  /// Generates JSON of `schema` for `prompt` and prints it: streamed as growing partial objects
  /// with `stream`, else whole at the end, with progress on a terminal's standard error.
  static func answer(
    _ prompt: String, schema: GenerationSchema, session: LanguageModelSession, options: GenerationOptions,
    includeSchemaInPrompt: Bool, stream: Bool, context: CommandContext
  ) async throws -> LanguageModelSession.Response<GeneratedContent> {
    let response = try await InterruptSignal.cancellingOnInterrupt {
      let responses = session.streamResponse(
        to: prompt, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
      if stream {
        var live = LiveText(output: context.standardOutput)
        for try await snapshot in responses { live.show(snapshot.rawContent.jsonString) }
        return try await responses.collect()
      }
      let progress = GenerationProgress(maximumTokens: options.maximumResponseTokens)
      let spinner = ProgressSpinner(output: context.standardError) { progress.message }
      do {
        for try await snapshot in responses { progress.update(snapshot.rawContent.jsonString) }
        let response = try await responses.collect()
        await spinner.stop()
        return response
      } catch {
        await spinner.stop()
        throw error
      }
    }
    if !stream { context.standardOutput.line(response.rawContent.jsonString) }
    return response
  }
}
