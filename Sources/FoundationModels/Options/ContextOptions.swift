/// How the model's context is built for a request: separate from `GenerationOptions`, which
/// governs sampling.
///
/// Matches FoundationModels 27 `ContextOptions`. `nil` fields mean the model's default. They
/// travel with each prompt (`Transcript.Prompt.contextOptions`) and each executor request.
public struct ContextOptions: Sendable, Equatable {
  /// How much a reasoning model thinks before it answers.
  ///
  /// Matches FoundationModels 27 `ContextOptions.ReasoningLevel`.
  @nonexhaustive
  public enum ReasoningLevel: Sendable, Equatable {
    case light
    case moderate
    case deep
    /// A provider-specific level or budget.
    case custom(String)
  }

  /// Whether the schema of a structured request is also described in the prompt text; it
  /// constrains the output either way on models that support guided generation.
  public var includeSchemaInPrompt: Bool?
  /// How much the model reasons.
  ///
  /// The session passes it to the model's executor with every request. The server model
  /// (`OpenAICompatibleLanguageModel`) sends it as OpenAI's `reasoning_effort`. The local model
  /// sets its chat template's switch: `enable_thinking` (true; `custom("off")` makes it false)
  /// and `reasoning_effort` (`light`, `moderate`, `deep` as low, medium, high); a model whose
  /// template does not think refuses any level with `unsupportedCapability(.reasoning)`.
  public var reasoningLevel: ReasoningLevel?

  /// Creates context options.
  public init(includeSchemaInPrompt: Bool? = nil, reasoningLevel: ReasoningLevel? = nil) {
    self.includeSchemaInPrompt = includeSchemaInPrompt
    self.reasoningLevel = reasoningLevel
  }
}
