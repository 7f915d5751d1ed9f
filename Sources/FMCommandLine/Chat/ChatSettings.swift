import FoundationModels

/// Everything the user can change with `/set` (and the matching flags); saved with a chat.
struct ChatSettings: Codable, Equatable, Sendable {
  /// The model's catalogue name or GGUF path.
  var model: String
  /// Tokens per session; nil for the model's default (4096).
  var contextSize: Int?
  /// The session's instructions; nil for none (the model's default system prompt).
  var instructions: String?
  /// 0...1, or nil for the system default.
  var temperature: Double?
  var sampling: SamplingSetting = .system
  /// The most tokens one reply may have; nil for no limit but the context.
  var maximumResponseTokens: Int?
  /// Whether string replies skip the guardrails (`.permissiveContentTransformations`).
  var permissiveGuardrails = false
  /// Print usage statistics after each reply.
  var verbose = false
  /// Summarise the conversation once the context is this full (percent); nil to wait for overflow.
  var summarizeAt: Int?
  /// Whether the model may call the built-in tools (`--tools`); nil (as in older saves) is off.
  var tools: Bool?

  var usesTools: Bool { tools == true }
  /// `--tool-choice`; nil is `auto`.
  var toolChoice: ToolChoice?
  /// The text of `--chat-template-file`, kept with a saved chat; nil for the model's own template.
  var chatTemplate: String?
  /// `--speculate`; nil (as in older saves) is the model's default: `draft` with a draft model,
  /// else `lookup`.
  var speculation: SystemLanguageModel.Speculation?
  /// `--draft-model`: the model that guesses for `model` (`--speculate draft`); nil for none.
  var draftModel: String?
  /// `/set think on|off`: whether a thinking model thinks; nil for its template's default.
  var think: Bool?

  /// The options each request is sent with.
  var generationOptions: GenerationOptions {
    GenerationOptions(
      samplingMode: sampling.mode, temperature: temperature, maximumResponseTokens: maximumResponseTokens,
      toolCallingMode: toolChoice?.mode)
  }

  /// The reasoning level `think` asks for: moderate, off, or the model's default.
  var contextOptions: ContextOptions {
    ContextOptions(reasoningLevel: think.map { $0 ? .moderate : .custom("off") })
  }

  /// The guardrails these settings choose.
  var guardrails: SystemLanguageModel.Guardrails {
    permissiveGuardrails ? .permissiveContentTransformations : .default
  }

  /// The model these settings describe.
  func makeModel() -> SystemLanguageModel {
    SystemLanguageModel(
      name: model, contextSize: contextSize, guardrails: guardrails, chatTemplate: chatTemplate,
      speculation: speculation, draftModel: draftModel)
  }

  /// `/show parameters`: one setting per line.
  var parameterLines: [String] {
    [
      "temperature      \(temperature.map { String($0) } ?? "default")",
      "sampling         \(sampling.description)",
      "max-tokens       \(maximumResponseTokens.map(String.init) ?? "none")",
      "context-size     \(contextSize.map(String.init) ?? "default")",
      "guardrails       \(permissiveGuardrails ? "permissive" : "default")",
      "summarize-at     \(summarizeAt.map { "\($0) %" } ?? "off (summarise when the context overflows)")",
      "verbose          \(verbose ? "on" : "off")",
      "tools            \(usesTools ? "on, tool choice \((toolChoice ?? .auto).rawValue)" : "off")",
      "think            \(think.map { $0 ? "on" : "off" } ?? "the model's default")",
      "speculate        \(makeModel().speculation.rawValue)\(draftModel.map { ", draft model \($0)" } ?? "")",
    ]
  }
}
