extension LanguageModelSession {
  // MARK: 26: the system model

  /// Matches FoundationModels `LanguageModelSession.init(model:tools:instructions:)` (String).
  @_disfavoredOverload
  public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: String? = nil) {
    self.init(model: model, tools: tools, instructions: instructions.map { Instructions($0) })
  }

  /// Matches FoundationModels `LanguageModelSession.init(model:tools:instructions:)` (builder).
  public convenience init(
    model: SystemLanguageModel = .default, tools: [any Tool] = [],
    @InstructionsBuilder instructions: () throws -> Instructions
  ) rethrows {
    self.init(model: model, tools: tools, instructions: try instructions())
  }

  /// Matches FoundationModels `LanguageModelSession.init(model:tools:instructions:)`.
  ///
  /// The transcript starts with an instructions entry when there are instructions or tools
  /// (the entry carries the tool definitions); with neither it starts empty and the model's
  /// default system prompt applies.
  public convenience init(
    model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: Instructions? = nil
  ) {
    self.init(model: model, tools: tools, transcript: Self.openingTranscript(instructions: instructions, tools: tools))
  }

  /// Matches FoundationModels `LanguageModelSession.init(model:tools:transcript:)`: continues
  /// the conversation of `transcript`. The first request evaluates the whole transcript; the
  /// following ones reuse the KV cache like any other session.
  public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], transcript: Transcript) {
    self.init(runner: ModelRunner(model), tools: tools, transcript: transcript, reportsGenerationErrors: true)
  }

  // MARK: 27: any model

  /// A session on any model (27).
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.init(model:tools:instructions:)` (String).
  @_disfavoredOverload
  public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: String? = nil) {
    self.init(model: model, tools: tools, instructions: instructions.map { Instructions($0) })
  }

  /// Matches FoundationModels 27 `LanguageModelSession.init(model:tools:instructions:)`.
  public convenience init(model: some LanguageModel, tools: [any Tool] = [], instructions: Instructions? = nil) {
    self.init(model: model, tools: tools, transcript: Self.openingTranscript(instructions: instructions, tools: tools))
  }

  /// Matches FoundationModels 27 `LanguageModelSession.init(model:tools:instructions:)` (builder,
  /// typed throws).
  public convenience init<Failure: Swift.Error>(
    model: some LanguageModel, tools: [any Tool] = [],
    @InstructionsBuilder instructions: () throws(Failure) -> Instructions
  ) throws(Failure) {
    self.init(model: model, tools: tools, instructions: try instructions())
  }

  /// Matches FoundationModels 27 `LanguageModelSession.init(model:tools:transcript:)`.
  public convenience init(model: some LanguageModel, tools: [any Tool] = [], transcript: Transcript) {
    self.init(runner: ModelRunner(model), tools: tools, transcript: transcript, reportsGenerationErrors: false)
  }

  // MARK: 27: dynamic instructions

  /// A session whose instructions and tools come from a dynamic instructions tree.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.init(model:dynamicInstructions:history:)`.
  /// The session evaluates the tree before every model invocation — each round of a tool loop
  /// too — and sends the model an instructions entry with the evaluation's segments and tool
  /// definitions, then the conversation; the model may call exactly the tools that evaluation
  /// enabled. The transcript starts with the instructions entry of the latest evaluation (the
  /// first is made here), followed by `history` and the session's turns.
  /// - Parameters:
  ///   - model: The model, by default the local one.
  ///   - dynamicInstructions: The tree of instructions and tools.
  ///   - history: Earlier conversation that follows the instructions. A leading instructions
  ///     entry (as in another session's transcript) is left out: the tree gives the instructions.
  public convenience init(
    model: some LanguageModel = SystemLanguageModel.default,
    dynamicInstructions: sending some DynamicInstructions,
    history: some Collection<Transcript.Entry> = []
  ) {
    let root = DynamicInstructionsRoot(dynamicInstructions)
    let properties = SessionPropertyValues()
    let opening = root.evaluate(with: properties)?.entry ?? EvaluatedInstructions(segments: [], tools: []).entry
    self.init(
      runner: ModelRunner(model), tools: [], transcript: Self.openingTranscript(opening, history: history),
      reportsGenerationErrors: false, dynamicInstructions: root, properties: properties)
  }

  // MARK: 27: profiles

  /// A session configured by a profile.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.init(profile:history:)`. Before every model
  /// invocation — each round of a tool loop too — the session evaluates the profile with its
  /// properties bound: the active branch's dynamic instructions give the instructions entry and
  /// the tools (as with `init(model:dynamicInstructions:history:)`), its model (by default the
  /// local one) answers, its options fill in what the request leaves unset, its history
  /// transform rewrites the conversation sent, and its hooks run as the turn goes. The
  /// transcript starts with the instructions entry of the latest evaluation (the first is made
  /// here; lifecycle hooks first run at the first invocation), followed by `history`.
  /// - Parameters:
  ///   - profile: The profile.
  ///   - history: Earlier conversation that follows the instructions. A leading instructions
  ///     entry (as in another session's transcript) is left out: the profile gives the
  ///     instructions.
  public convenience init(
    profile: sending some LanguageModelSession.DynamicProfile,
    history: some Collection<Transcript.Entry> = []
  ) {
    let root = DynamicProfileRoot(profile)
    let properties = SessionPropertyValues()
    let resolved = root.resolve(with: properties)
    let opening =
      DynamicInstructionsRoot().evaluate(with: properties, fallback: resolved.instructions)?.entry
      ?? EvaluatedInstructions(segments: [], tools: []).entry
    let model: any LanguageModel = resolved.model ?? SystemLanguageModel.default
    self.init(
      runner: ModelRunner(model), tools: [],
      transcript: Self.openingTranscript(opening, history: history), reportsGenerationErrors: false,
      properties: properties,
      profile: root)
  }

  /// The transcript of a session with dynamic instructions: the first evaluation's instructions
  /// entry, then the conversation of `history` (without a leading instructions entry).
  private static func openingTranscript(
    _ instructions: Transcript.Entry, history: some Collection<Transcript.Entry>
  ) -> Transcript {
    Transcript(entries: [instructions] + Transcript(entries: Array(history)).history)
  }
}
