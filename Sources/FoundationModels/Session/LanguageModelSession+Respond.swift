extension LanguageModelSession {
  /// Matches FoundationModels `respond(to:options:)` with a `Prompt`.
  @discardableResult
  nonisolated(nonsending) public func respond(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) async throws
    -> Response<String>
  {
    try await streamResponse(to: prompt, options: options).collect()
  }

  /// Matches FoundationModels `respond(to:options:)` with a `String`.
  @discardableResult @_disfavoredOverload
  nonisolated(nonsending) public func respond(to prompt: String, options: GenerationOptions = GenerationOptions()) async throws
    -> Response<String>
  {
    try await respond(to: Prompt(prompt), options: options)
  }

  /// Matches FoundationModels `respond(options:prompt:)` with a prompt builder.
  @discardableResult
  nonisolated(nonsending) public func respond(
    options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<String> {
    try await respond(to: try prompt(), options: options)
  }

  /// Matches FoundationModels `streamResponse(to:options:)` with a `Prompt`.
  public func streamResponse(to prompt: Prompt, options: GenerationOptions = GenerationOptions())
    -> sending ResponseStream<String>
  {
    startTurn(prompt: prompt, format: .text, includeSchemaInPrompt: false, options: options, as: String.self)
  }

  /// Matches FoundationModels `streamResponse(to:options:)` with a `String`.
  @_disfavoredOverload
  public func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions())
    -> sending ResponseStream<String>
  {
    streamResponse(to: Prompt(prompt), options: options)
  }

  /// Matches FoundationModels `streamResponse(options:prompt:)` with a prompt builder.
  public func streamResponse(
    options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
  ) rethrows -> sending ResponseStream<String> {
    streamResponse(to: try prompt(), options: options)
  }
}
