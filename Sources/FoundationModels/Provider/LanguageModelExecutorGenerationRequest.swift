import Foundation

/// What the session asks of an executor for one model invocation.
///
/// Matches FoundationModels 27 `LanguageModelExecutorGenerationRequest`. Every property is
/// readable and writable, so middleware can adjust a request before passing it on.
public struct LanguageModelExecutorGenerationRequest: Sendable {
  /// The id of this invocation (one per executor call; inside a tool loop, one per round).
  public var id: UUID
  /// Everything the model sees: instructions (with tool definitions), the history, the new
  /// prompt and, inside a tool loop, the calls and outputs so far — as the session's profile's
  /// history transform returned them, which may have dropped any of these.
  public var transcript: Transcript
  /// The tools the model may call in this invocation.
  public var enabledToolDefinitions: [Transcript.ToolDefinition]
  /// The structure the answer must have (JSON of this schema), or nil for text.
  public var schema: GenerationSchema?
  /// Sampling, temperature, length and tool-calling mode.
  public var generationOptions: GenerationOptions
  /// Whether to describe the schema in the prompt, and the reasoning level.
  public var contextOptions: ContextOptions
  /// The caller's metadata (`respond(…, metadata:)`), for provider-specific settings.
  public var metadata: [String: any Sendable & Codable & Equatable]

  /// Creates a request.
  ///
  /// Note the label `enabledTools` for ``enabledToolDefinitions``, as in Apple's SDK.
  public init(
    id: UUID, transcript: Transcript, enabledTools: [Transcript.ToolDefinition], schema: GenerationSchema? = nil,
    generationOptions: GenerationOptions, contextOptions: ContextOptions,
    metadata: [String: any Sendable & Codable & Equatable]
  ) {
    self.id = id
    self.transcript = transcript
    enabledToolDefinitions = enabledTools
    self.schema = schema
    self.generationOptions = generationOptions
    self.contextOptions = contextOptions
    self.metadata = metadata
  }
}
