import Foundation

/// Runs one turn against the model's executor: a model invocation per round, the tools the
/// model calls between rounds, until the model answers.
struct TurnDriver: Sendable {
  let runner: ModelRunner
  /// The session's tools, when it has no dynamic instructions.
  let tools: [any Tool]
  /// The session's transcript before the turn.
  let transcript: Transcript
  let prompt: Transcript.Entry
  let request: TurnRequest
  /// The session's properties, bound while its tools run.
  let properties: SessionPropertyValues
  /// Evaluates the session's dynamic instructions before an invocation; nil while the session
  /// has none.
  let evaluateInstructions: @Sendable () -> EvaluatedInstructions?

  /// What one invocation sends: the transcript before the turn (its instructions entry from
  /// this invocation's evaluation, for dynamic instructions) and the tools the model may call.
  private func invocationContext() -> (transcript: [Transcript.Entry], tools: [any Tool]) {
    guard let evaluated = evaluateInstructions() else { return (transcript.entries, tools) }
    return ([evaluated.entry] + transcript.history, evaluated.tools)
  }

  /// What a finished turn produced.
  struct Result {
    /// The prompt, then every entry the model and the tools produced.
    var entries: [Transcript.Entry]
    /// The answer's text (JSON for structured requests).
    var text: String
    var rawContent: GeneratedContent
    var usage: LanguageModelSession.Usage
  }

  /// A turn that failed, with what it had produced by then (for `.preserveTranscript`).
  struct Failure: Swift.Error {
    var error: any Swift.Error
    /// The prompt, then every entry of the finished rounds, then what the failing invocation had
    /// sent.
    var entries: [Transcript.Entry]
  }

  /// Runs the turn, calling `snapshot` with the entries, the answer's text and the usage so far
  /// whenever the answer grows.
  func run(
    snapshot: ([Transcript.Entry], String, LanguageModelSession.Usage) throws -> Void
  ) async throws(Failure) -> Result {
    var produced = [prompt]
    var invocation = TurnAssembler()
    do {
      try checkCapabilities()
      var usage = LanguageModelSession.Usage.zero
      for _ in 0..<LanguageModelSession.maximumToolRounds {
        let context = invocationContext()
        try checkToolCalling(context.tools)
        try await invoke(Transcript(entries: context.transcript + produced), tools: context.tools, into: &invocation) {
          entries, text, stepUsage in
          try snapshot(produced + entries, text, stepUsage.map(usage.adding) ?? usage)
        }
        // An executor may end early when the turn is cancelled; what it sent is not an answer.
        try Task.checkCancellation()
        let entries = try invocation.finishedEntries()
        if let stepUsage = invocation.usage { usage = usage.adding(stepUsage) }
        produced += entries
        invocation = TurnAssembler()  // the next invocation's, empty until it sends something
        guard case .toolCalls(let calls)? = entries.last, !calls.isEmpty else {
          return try finish(produced, usage: usage)
        }
        produced += try await SessionPropertyValues.$current.withValue(properties) {
          try await ToolRunner(tools: context.tools).outputs(for: calls)
        }
      }
      throw LanguageModelError.timeout(
        .init(
          debugDescription:
            "The model called tools in \(LanguageModelSession.maximumToolRounds) rounds without answering."))
    } catch {
      throw Failure(error: error, entries: produced + invocation.entries)
    }
  }

  /// One model invocation, its events assembled into `assembler` as they arrive (so a failed
  /// invocation leaves what it had sent there).
  private func invoke(
    _ working: Transcript, tools: [any Tool], into assembler: inout TurnAssembler,
    snapshot: ([Transcript.Entry], String, LanguageModelExecutorGenerationChannel.Usage?) throws -> Void
  ) async throws {
    let executorRequest = LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: working, enabledTools: tools.map { Transcript.ToolDefinition(tool: $0) },
      schema: request.format.schema, generationOptions: request.options, contextOptions: request.contextOptions,
      metadata: request.metadata)
    let channel = LanguageModelExecutorGenerationChannel()
    let runner = runner
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await runner.respond(to: executorRequest, into: channel) }
      var shown: String?
      for try await event in channel {
        assembler.apply(event)
        guard let text = assembler.responseText, text != shown else { continue }
        shown = text
        try snapshot(assembler.entries, text, assembler.usage)
      }
      try await group.waitForAll()
    }
  }

  /// The answer: the last response entry, its text read as the requested content; for a
  /// structured request the entry records the content as one structured segment.
  private func finish(_ produced: [Transcript.Entry], usage: LanguageModelSession.Usage) throws -> Result {
    var entries = produced
    let last = entries.lastIndex { if case .response = $0 { true } else { false } }
    var text = ""
    if let last, case .response(let response) = entries[last] { text = SegmentJoining.text(of: response.segments) }
    let raw = try request.format.rawContent(text)
    guard raw.isComplete else {
      throw GeneratedContent.ParsingError(
        rawContent: text, debugDescription: "Generation ended before the output was complete: \(text)")
    }
    if request.format.schema != nil, let last, case .response(let response) = entries[last] {
      entries[last] = .response(
        Transcript.Response(
          id: response.id, metadata: response.metadata, segments: [request.format.segment(text, rawContent: raw)]))
    } else if last == nil {
      entries.append(.response(Transcript.Response(segments: [request.format.segment(text, rawContent: raw)])))
    }
    return Result(entries: entries, text: text, rawContent: raw, usage: usage)
  }

  /// Refuses a request the model cannot serve, before its executor is called.
  private func checkCapabilities() throws {
    let capabilities = runner.capabilities
    if request.format.schema != nil, !capabilities.contains(.guidedGeneration) {
      throw unsupported(.guidedGeneration, "The model cannot generate output of a schema.")
    }
    let hasAttachment = (transcript.entries + [prompt]).contains { entry in
      entry.segments.contains { if case .attachment = $0 { true } else { false } }
    }
    if hasAttachment, !capabilities.contains(.vision) {
      throw unsupported(.vision, "The transcript has image attachments, and the model cannot read images.")
    }
  }

  /// Refuses an invocation with tools when the model cannot call tools (unless the request
  /// disallows tool calls).
  private func checkToolCalling(_ tools: [any Tool]) throws {
    if !tools.isEmpty, request.options.toolCallingMode?.kind != .disallowed,
      !runner.capabilities.contains(.toolCalling)
    {
      throw unsupported(
        .toolCalling,
        "The session has tools, and the model cannot call tools; create the session without tools or set toolCallingMode to .disallowed."
      )
    }
  }

  private func unsupported(_ capability: LanguageModelCapabilities.Capability, _ message: String) -> LanguageModelError
  {
    .unsupportedCapability(.init(capability: capability, debugDescription: message))
  }
}

extension Transcript.Entry {
  /// The entry's content segments (none for tool calls).
  var segments: [Transcript.Segment] {
    switch self {
    case .instructions(let instructions): instructions.segments
    case .prompt(let prompt): prompt.segments
    case .response(let response): response.segments
    case .reasoning(let reasoning): reasoning.segments
    case .toolOutput(let output): output.segments
    case .toolCalls: []
    }
  }
}
