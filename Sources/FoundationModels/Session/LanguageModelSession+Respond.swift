extension LanguageModelSession {
  // MARK: 26

  /// Matches FoundationModels `respond(to:options:)` with a `Prompt`.
  @discardableResult
  nonisolated(nonsending) public func respond(to prompt: Prompt, options: GenerationOptions = GenerationOptions())
    async throws -> Response<String>
  {
    try await streamResponse(to: prompt, options: options).collect()
  }

  /// Matches FoundationModels `respond(to:options:)` with a `String`.
  @discardableResult @_disfavoredOverload
  nonisolated(nonsending) public func respond(to prompt: String, options: GenerationOptions = GenerationOptions())
    async throws -> Response<String>
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
    streamResponse(to: prompt, options: options, contextOptions: ContextOptions(), metadata: [:])
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

  // MARK: 27: context options and metadata

  /// Matches FoundationModels 27 `respond(to:options:contextOptions:metadata:)` with a `Prompt`.
  @discardableResult
  nonisolated(nonsending) public func respond(
    to prompt: Prompt, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(), metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) async throws -> Response<String> {
    try await streamResponse(to: prompt, options: options, contextOptions: contextOptions, metadata: metadata).collect()
  }

  /// Matches FoundationModels 27 `respond(to:options:contextOptions:metadata:)` with a `String`.
  @discardableResult @_disfavoredOverload
  nonisolated(nonsending) public func respond(
    to prompt: String, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(), metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) async throws -> Response<String> {
    try await respond(to: Prompt(prompt), options: options, contextOptions: contextOptions, metadata: metadata)
  }

  /// Matches FoundationModels 27 `respond(options:contextOptions:metadata:prompt:)`.
  @discardableResult
  nonisolated(nonsending) public func respond(
    options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
    metadata: [String: any Sendable & Codable & Equatable] = [:], @PromptBuilder prompt: () throws -> Prompt
  ) async throws -> Response<String> {
    try await respond(to: try prompt(), options: options, contextOptions: contextOptions, metadata: metadata)
  }

  /// Matches FoundationModels 27 `streamResponse(to:options:contextOptions:metadata:)` with a `Prompt`.
  public func streamResponse(
    to prompt: Prompt, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(), metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) -> sending ResponseStream<String> {
    startTurn(
      prompt: prompt,
      request: TurnRequest(format: .text, options: options, contextOptions: contextOptions, metadata: metadata),
      as: String.self)
  }

  /// Matches FoundationModels 27 `streamResponse(to:options:contextOptions:metadata:)` with a `String`.
  @_disfavoredOverload
  public func streamResponse(
    to prompt: String, options: GenerationOptions = GenerationOptions(),
    contextOptions: ContextOptions = ContextOptions(), metadata: [String: any Sendable & Codable & Equatable] = [:]
  ) -> sending ResponseStream<String> {
    streamResponse(to: Prompt(prompt), options: options, contextOptions: contextOptions, metadata: metadata)
  }

  /// Matches FoundationModels 27 `streamResponse(options:contextOptions:metadata:prompt:)`.
  public func streamResponse(
    options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(),
    metadata: [String: any Sendable & Codable & Equatable] = [:], @PromptBuilder prompt: () throws -> Prompt
  ) rethrows -> sending ResponseStream<String> {
    streamResponse(to: try prompt(), options: options, contextOptions: contextOptions, metadata: metadata)
  }
}
