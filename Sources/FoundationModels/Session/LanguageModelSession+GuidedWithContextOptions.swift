extension LanguageModelSession {
  // MARK: 27: runtime schema → GeneratedContent, with context options and metadata

  /// Matches FoundationModels 27 `respond(to:schema:options:contextOptions:metadata:)` with a `Prompt`.
  @discardableResult @_disfavoredOverload
  nonisolated(nonsending) public func respond(
    to prompt: Prompt, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) async throws -> Response<GeneratedContent> {
    try await streamResponse(
      to: prompt, schema: schema, options: options, contextOptions: contextOptions, metadata: metadata
    )
    .collect()
  }

  /// Matches FoundationModels 27 `respond(to:schema:options:contextOptions:metadata:)` with a `String`.
  @discardableResult @_disfavoredOverload
  nonisolated(nonsending) public func respond(
    to prompt: String, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) async throws -> Response<GeneratedContent> {
    try await respond(
      to: Prompt(prompt), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
  }

  /// Matches FoundationModels 27 `respond(schema:options:contextOptions:metadata:prompt:)`.
  @discardableResult @_disfavoredOverload
  nonisolated(nonsending) public func respond(
    schema: GenerationSchema, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:],
    @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<GeneratedContent> {
    try await respond(
      to: try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
  }

  /// Matches FoundationModels 27 `streamResponse(to:schema:options:contextOptions:metadata:)` with a `Prompt`.
  @_disfavoredOverload
  public func streamResponse(
    to prompt: Prompt, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) -> sending ResponseStream<GeneratedContent> {
    startTurn(
      prompt: prompt,
      request: TurnRequest(
        format: ContentFormat(schema: schema), options: options, contextOptions: contextOptions, metadata: metadata),
      as: GeneratedContent.self)
  }

  /// Matches FoundationModels 27 `streamResponse(to:schema:options:contextOptions:metadata:)` with a `String`.
  @_disfavoredOverload
  public func streamResponse(
    to prompt: String, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) -> sending ResponseStream<GeneratedContent> {
    streamResponse(
      to: Prompt(prompt), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
  }

  /// Matches FoundationModels 27 `streamResponse(schema:options:contextOptions:metadata:prompt:)`.
  @_disfavoredOverload
  public func streamResponse(
    schema: GenerationSchema, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:],
    @PromptBuilder prompt: () throws -> Prompt
  ) rethrows -> sending ResponseStream<GeneratedContent> {
    streamResponse(
      to: try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)
  }

  // MARK: 27: Generable types, with context options and metadata

  /// Matches FoundationModels 27 `respond(to:generating:options:contextOptions:metadata:)` with a `Prompt`.
  @discardableResult
  nonisolated(nonsending) public func respond<Content: Generable>(
    to prompt: Prompt, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) async throws -> Response<Content> {
    try await streamResponse(
      to: prompt, generating: type, options: options, contextOptions: contextOptions, metadata: metadata
    ).collect()
  }

  /// Matches FoundationModels 27 `respond(to:generating:options:contextOptions:metadata:)` with a `String`.
  @discardableResult @_disfavoredOverload
  nonisolated(nonsending) public func respond<Content: Generable>(
    to prompt: String, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) async throws -> Response<Content> {
    try await respond(
      to: Prompt(prompt), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
  }

  /// Matches FoundationModels 27 `respond(generating:options:contextOptions:metadata:prompt:)`.
  @discardableResult
  nonisolated(nonsending) public func respond<Content: Generable>(
    generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:],
    @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<Content> {
    try await respond(
      to: try prompt(), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
  }

  /// Matches FoundationModels 27 `streamResponse(to:generating:options:contextOptions:metadata:)` with a `Prompt`.
  public func streamResponse<Content: Generable>(
    to prompt: Prompt, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) -> sending ResponseStream<Content> {
    startTurn(
      prompt: prompt,
      request: TurnRequest(
        format: ContentFormat(schema: Content.generationSchema), options: options, contextOptions: contextOptions,
        metadata: metadata),
      as: Content.self)
  }

  /// Matches FoundationModels 27 `streamResponse(to:generating:options:contextOptions:metadata:)` with a `String`.
  @_disfavoredOverload
  public func streamResponse<Content: Generable>(
    to prompt: String, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) -> sending ResponseStream<Content> {
    streamResponse(
      to: Prompt(prompt), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
  }

  /// Matches FoundationModels 27 `streamResponse(generating:options:contextOptions:metadata:prompt:)`.
  public func streamResponse<Content: Generable>(
    generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true),
    metadata: [String: any Sendable & Codable & Equatable] = [:],
    @PromptBuilder prompt: () throws -> Prompt
  ) rethrows -> sending ResponseStream<Content> {
    streamResponse(
      to: try prompt(), generating: type, options: options, contextOptions: contextOptions, metadata: metadata)
  }
}
