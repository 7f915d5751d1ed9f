extension LanguageModelSession {
  // MARK: 26: runtime schema → GeneratedContent

  /// Matches FoundationModels `respond(to:schema:includeSchemaInPrompt:options:)` with a `Prompt`.
  @discardableResult
  nonisolated(nonsending) public func respond(
    to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<GeneratedContent> {
    try await streamResponse(to: prompt, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
      .collect()
  }

  /// Matches FoundationModels `respond(to:schema:includeSchemaInPrompt:options:)` with a `String`.
  @discardableResult @_disfavoredOverload
  nonisolated(nonsending) public func respond(
    to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<GeneratedContent> {
    try await respond(
      to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Matches FoundationModels `respond(schema:includeSchemaInPrompt:options:prompt:)`.
  @discardableResult
  nonisolated(nonsending) public func respond(
    schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
    @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<GeneratedContent> {
    try await respond(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Matches FoundationModels `streamResponse(to:schema:includeSchemaInPrompt:options:)` with a `Prompt`.
  public func streamResponse(
    to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) -> sending ResponseStream<GeneratedContent> {
    streamResponse(
      to: prompt, schema: schema, options: options,
      contextOptions: ContextOptions(includeSchemaInPrompt: includeSchemaInPrompt), metadata: [:])
  }

  /// Matches FoundationModels `streamResponse(to:schema:includeSchemaInPrompt:options:)` with a `String`.
  @_disfavoredOverload
  public func streamResponse(
    to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) -> sending ResponseStream<GeneratedContent> {
    streamResponse(to: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Matches FoundationModels `streamResponse(schema:includeSchemaInPrompt:options:prompt:)`.
  public func streamResponse(
    schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(),
    @PromptBuilder prompt: () throws -> Prompt
  ) rethrows -> sending ResponseStream<GeneratedContent> {
    streamResponse(to: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  // MARK: 26: Generable types

  /// Matches FoundationModels `respond(to:generating:includeSchemaInPrompt:options:)` with a `Prompt`.
  @discardableResult
  nonisolated(nonsending) public func respond<Content: Generable>(
    to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<Content> {
    try await streamResponse(
      to: prompt, generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options
    )
    .collect()
  }

  /// Matches FoundationModels `respond(to:generating:includeSchemaInPrompt:options:)` with a `String`.
  @discardableResult @_disfavoredOverload
  nonisolated(nonsending) public func respond<Content: Generable>(
    to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) async throws -> Response<Content> {
    try await respond(
      to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Matches FoundationModels `respond(generating:includeSchemaInPrompt:options:prompt:)`.
  @discardableResult
  nonisolated(nonsending) public func respond<Content: Generable>(
    generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<Content> {
    try await respond(
      to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Matches FoundationModels `streamResponse(to:generating:includeSchemaInPrompt:options:)` with a `Prompt`.
  public func streamResponse<Content: Generable>(
    to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) -> sending ResponseStream<Content> {
    streamResponse(
      to: prompt, generating: type, options: options,
      contextOptions: ContextOptions(includeSchemaInPrompt: includeSchemaInPrompt), metadata: [:])
  }

  /// Matches FoundationModels `streamResponse(to:generating:includeSchemaInPrompt:options:)` with a `String`.
  @_disfavoredOverload
  public func streamResponse<Content: Generable>(
    to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions()
  ) -> sending ResponseStream<Content> {
    streamResponse(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }

  /// Matches FoundationModels `streamResponse(generating:includeSchemaInPrompt:options:prompt:)`.
  public func streamResponse<Content: Generable>(
    generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true,
    options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt
  ) rethrows -> sending ResponseStream<Content> {
    streamResponse(to: try prompt(), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
  }
}
