extension SystemLanguageModel {
  /// Matches FoundationModels `tokenCount(for:)` for a prompt: the tokens of the user turn the
  /// chat template renders around it (what the prompt adds to a session's context).
  nonisolated(nonsending) public func tokenCount(for prompt: some PromptRepresentable) async throws -> Int {
    let entry = Transcript.Entry.prompt(Transcript.Prompt(segments: prompt.promptRepresentation.segments))
    // After (empty) instructions, so that a template's default system prompt, which it writes
    // only when a conversation has none, is left out.
    let instructions = Transcript.Entry.instructions(Transcript.Instructions(segments: [], toolDefinitions: []))
    return try await tokenCount(for: [instructions, entry]) - tokenCount(for: [instructions])
  }

  /// Matches FoundationModels `tokenCount(for:)` for instructions: the system turn they become.
  nonisolated(nonsending) public func tokenCount(for instructions: Instructions) async throws -> Int {
    try await tokenCount(for: [
      .instructions(Transcript.Instructions(segments: instructions.segments, toolDefinitions: []))
    ])
  }

  /// Matches FoundationModels `tokenCount(for:)` for tools: what their definitions add to the
  /// instructions (the template's tool block).
  nonisolated(nonsending) public func tokenCount(for tools: [any Tool]) async throws -> Int {
    let bare = Transcript.Instructions(segments: [], toolDefinitions: [])
    var withTools = bare
    withTools.toolDefinitions = tools.map { Transcript.ToolDefinition(tool: $0) }
    let total = try await tokenCount(for: [.instructions(withTools)])
    return try await total - tokenCount(for: [.instructions(bare)])
  }

  /// Matches FoundationModels `tokenCount(for:)` for a schema: the text that describes it in a
  /// prompt when `includeSchemaInPrompt` is true.
  nonisolated(nonsending) public func tokenCount(for schema: GenerationSchema) async throws -> Int {
    try await LocalEngine.tokenCount(of: TranscriptRenderer.schemaInstruction(schema), model: self)
  }

  /// Matches FoundationModels `tokenCount(for:)` for transcript entries: the tokens the entries
  /// take in the context when rendered with the model's chat template, as a session feeds them
  /// (with the model's default system prompt when they have no instructions).
  nonisolated(nonsending) public func tokenCount(for transcriptEntries: some Collection<Transcript.Entry>) async throws
    -> Int
  {
    try await LocalEngine.tokenCount(of: Array(transcriptEntries), model: self)
  }
}
