import FoundationModels

/// The options of Apple's `fm respond` on macOS 27 that ours takes beside its own.
enum AppleRespondOptions {
  /// The prompt's segments and the transcript it follows, which `fm token-count` takes too.
  static let promptOptions: [CommandLineOption] = [
    .option("--text", value: "TEXT", help: "a text segment added to the prompt (repeatable)"),
    .option("--image", value: "PATH", help: "an image added to the prompt (refused: no local model reads images)"),
    .option("--load-transcript", value: "FILE", help: "a transcript (JSON, or an fm chat save) the prompt follows"),
  ]

  static let options: [CommandLineOption] =
    promptOptions + [
      .option("--schema", value: "FILE", help: "JSON Schema file the answer must satisfy (as 'fm generate')"),
      .option("--save-transcript", value: "FILE", help: "write the session's transcript (JSON) here afterwards"),
      .flag("--stream", help: "stream the answer as it is generated (the default)"),
      .flag("--no-stream", help: "print the answer once it is whole"),
      .option("--use-case", value: "CASE", help: "general | content-tagging (an answer of comma-separated tags)"),
      .option("--guardrails", value: "MODE", help: "default | permissive-content-transformations"),
    ]

  /// `--use-case`.
  static func useCase(_ arguments: ParsedArguments) throws -> SystemLanguageModel.UseCase {
    switch arguments.value("--use-case") {
    case nil, "general": .general
    case "content-tagging": .contentTagging
    case let other?: throw UsageError("--use-case needs general or content-tagging, not '\(other)'")
    }
  }

  /// `--guardrails` (also `permissive`, as `fm chat` spells it).
  static func guardrails(_ arguments: ParsedArguments) throws -> SystemLanguageModel.Guardrails {
    switch arguments.value("--guardrails") {
    case nil, "default": .default
    case "permissive-content-transformations", "permissive": .permissiveContentTransformations
    case let other?:
      throw UsageError("--guardrails needs default or permissive-content-transformations, not '\(other)'")
    }
  }

  /// The prompt's segments: standard input (when not a terminal), PROMPT, then each `--text`;
  /// empty where there are none.
  /// - Throws: `UsageError` for `--image`: no local model reads images.
  static func segments(_ arguments: ParsedArguments) throws -> [String] {
    if let image = arguments.value("--image") {
      throw UsageError("--image \(image): no local model reads images")
    }
    return PromptInput.pieces(arguments.positionals) + (arguments.values["--text"] ?? [])
  }

  /// The prompt: its segments, a blank line apart.
  /// - Throws: `UsageError` for `--image`, or no segment at all.
  static func prompt(_ arguments: ParsedArguments) throws -> String {
    let segments = try segments(arguments)
    guard !segments.isEmpty else {
      throw UsageError("no prompt: give one as an argument, with --text or on standard input")
    }
    return segments.joined(separator: "\n\n")
  }

  /// The schema of a content-tagging answer: one to ten tags of one to a few lowercase words,
  /// so the answer is always a tag list.
  static let tagsSchema = #"""
    {"type": "array", "minItems": 1, "maxItems": 10,
     "items": {"type": "string", "pattern": "^[a-z0-9]+( [a-z0-9]+){0,3}$"}}
    """#
}
