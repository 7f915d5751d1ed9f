import Foundation
import Guardrails

/// Runs one turn against the model's executor: a model invocation per round, the tools the
/// model calls between rounds, until the model answers.
struct TurnDriver: Sendable {
  /// The turn's id, bound while its tools, hooks and profile evaluations run (their history
  /// reads see the turn's conversation, and their history writes are allowed).
  let turn: UUID
  let request: TurnRequest
  /// The session's properties, bound while its tools and hooks run.
  let properties: SessionPropertyValues
  /// Prepares each invocation: its model, instructions, tools, options and hooks.
  let prepare: @Sendable () async -> InvocationSetup
  /// The turn's conversation as it is now: the session's history, then the turn's prompt, as
  /// the turn's tools and hooks have rewritten them (the entries the turn produced are not in
  /// it until the turn ends).
  let history: @Sendable () -> [Transcript.Entry]
  /// Whether the request generates a `String` (the guardrails' permissive mode skips those).
  let generatesString: Bool

  /// The transcript one invocation sends: the instructions, then the conversation, then the
  /// entries the turn has produced, through the profile's history transform — which gets all of
  /// it, instructions included, and whose result is sent as it is.
  private func working(_ setup: InvocationSetup, produced: [Transcript.Entry]) -> Transcript {
    Transcript(entries: setup.historyTransform((setup.instructions.map { [$0] } ?? []) + history() + produced))
  }

  /// The turn's prompt as the conversation has it now: its last entry, when that is a prompt.
  private func currentPrompt() -> Transcript.Entry? {
    let last = history().last
    guard case .prompt? = last else { return nil }
    return last
  }

  /// Runs `body` with the session's properties and this turn bound, as tools and hooks run.
  private func bound<Result>(_ body: () async throws -> Result) async throws -> Result {
    try await SessionPropertyValues.$current.withValue(properties) {
      try await SessionPropertyValues.$turn.withValue(turn) { try await body() }
    }
  }

  /// What a finished turn produced.
  struct Result {
    /// The turn's prompt as its hooks left it (nil when they removed it from the conversation).
    var prompt: Transcript.Entry?
    /// Every entry the model and the tools produced.
    var entries: [Transcript.Entry]
    /// The answer's text (JSON for structured requests).
    var text: String
    var rawContent: GeneratedContent
    var usage: LanguageModelSession.Usage
  }

  /// A turn that failed, with what it had produced by then (for `.preserveTranscript`).
  struct Failure: Swift.Error {
    var error: any Swift.Error
    /// Every entry of the finished rounds, then what the failing invocation had sent (the
    /// turn's conversation, with its prompt, is the session's).
    var entries: [Transcript.Entry]
    /// The error policy of the profile of the failing invocation, if it set one.
    var profilePolicy: TranscriptErrorHandlingPolicy?
  }

  /// Runs the turn, calling `snapshot` with the entries, the answer's text and the usage so far
  /// whenever the answer grows.
  func run(
    snapshot: ([Transcript.Entry], String, LanguageModelSession.Usage) throws -> Void
  ) async throws(Failure) -> Result {
    var produced: [Transcript.Entry] = []
    var prompt = currentPrompt()
    var invocation = TurnAssembler()
    var profilePolicy: TranscriptErrorHandlingPolicy?
    var latestSetup: InvocationSetup?
    var checkedInstructions: String?
    do {
      var usage = LanguageModelSession.Usage.zero
      var callCounts: [String: Int] = [:]
      for round in 0..<LanguageModelSession.maximumToolRounds {
        let setup = try await bound { await prepare() }
        profilePolicy = setup.transcriptErrorHandlingPolicy
        latestSetup = setup
        let guardrails = TurnGuardrails(runner: setup.runner, generatesString: generatesString)
        if round == 0, case .prompt(let sent)? = prompt {
          // The hooks see the prompt at the end of the history, and may rewrite both.
          try await bound {
            try await setup.runHooks { hook in
              guard case .prompt(let action) = hook else { return nil }
              return { try await action(sent) }
            }
          }
        }
        prompt = currentPrompt()
        // The instructions are checked again when a profile or tool changed them between rounds.
        if let instructions = setup.instructions.map({ SegmentJoining.text(of: $0.segments) }),
          instructions != checkedInstructions
        {
          try await guardrails.checkInput(instructions, source: "the instructions")
          checkedInstructions = instructions
        }
        if round == 0, let prompt {
          try await guardrails.checkInput(SegmentJoining.text(of: prompt.segments), source: "the prompt")
        }
        let working = working(setup, produced: produced)
        try checkCapabilities(setup, sending: working)
        try await invoke(working, setup: setup, guardrails: guardrails, into: &invocation) {
          entries, text, stepUsage in
          try snapshot((prompt.map { [$0] } ?? []) + produced + entries, text, stepUsage.map(usage.adding) ?? usage)
        }
        // An executor may end early when the turn is cancelled; what it sent is not an answer.
        try Task.checkCancellation()
        let entries = try invocation.finishedEntries()
        if let stepUsage = invocation.usage { usage = usage.adding(stepUsage) }
        produced += entries
        invocation = TurnAssembler()  // the next invocation's, empty until it sends something
        guard case .toolCalls(let calls)? = entries.last, !calls.isEmpty else {
          let result = try finish(produced, prompt: currentPrompt(), usage: usage)
          if request.format.schema != nil, let refusal = Self.refusalText(in: result.rawContent) {
            throw ModelRefusal(
              entries: (setup.instructions.map { [$0] } ?? []) + history() + result.entries, runner: setup.runner,
              debugDescription: "The model declined to generate the requested content: \(refusal)")
          }
          if case .response(let response)? = result.entries.last {
            try await bound {
              try await setup.runHooks { hook in
                guard case .response(let action) = hook else { return nil }
                return { try await action(response) }
              }
            }
          }
          return result
        }
        for call in calls {
          let key = call.toolName + "\u{0}" + call.arguments.jsonString
          let count = callCounts[key, default: 0] + 1
          callCounts[key] = count
          if count > LanguageModelSession.maximumIdenticalToolCalls {
            throw LanguageModelError.timeout(
              .init(
                debugDescription:
                  "The model called \(call.toolName) with the same arguments \(count) times in one turn (\(call.arguments.jsonString)); the tool loop was stopped."
              ))
          }
        }
        for call in calls {
          try await bound {
            try await setup.runHooks { hook in
              guard case .toolCall(let action) = hook else { return nil }
              return { try await action(call) }
            }
          }
        }
        let outputs = try await bound { try await ToolRunner(tools: setup.tools).outputs(for: calls) }
        for case .toolOutput(let output) in outputs {
          try await guardrails.checkInput(
            SegmentJoining.text(of: output.segments), source: "the output of the tool '\(output.toolName)'")
        }
        produced += outputs
        for (call, entry) in zip(calls, outputs) {
          guard case .toolOutput(let output) = entry else { continue }
          try await bound {
            try await setup.runHooks { hook in
              guard case .toolOutput(let action) = hook else { return nil }
              return { try await action(call, output) }
            }
          }
        }
      }
      throw LanguageModelError.timeout(
        .init(
          debugDescription:
            "The model called tools in \(LanguageModelSession.maximumToolRounds) rounds without answering."))
    } catch {
      var reported: any Swift.Error = error
      // A provider's refusal carries the exchange it refused, for its explanation.
      if case LanguageModelError.refusal(let payload) = error, let setup = latestSetup {
        reported = ModelRefusal(
          entries: (setup.instructions.map { [$0] } ?? []) + history() + produced + invocation.entries,
          runner: setup.runner, debugDescription: payload.debugDescription)
      }
      throw Failure(error: reported, entries: produced + invocation.entries, profilePolicy: profilePolicy)
    }
  }

  /// The characters of a growing answer the patterns read on every snapshot.
  static let patternTail = 240

  /// The first string of a structured answer that reads as a refusal, if any.
  static func refusalText(in content: GeneratedContent) -> String? {
    switch content.kind {
    case .string(let text): return RefusalDetector.isRefusal(text) ? text : nil
    case .array(let elements): return elements.lazy.compactMap(refusalText).first
    case .structure(let properties, let keys): return keys.lazy.compactMap { properties[$0].flatMap(refusalText) }.first
    default: return nil
    }
  }

  /// One model invocation, its events assembled into `assembler` as they arrive (so a failed
  /// invocation leaves what it had sent there).
  private func invoke(
    _ working: Transcript, setup: InvocationSetup, guardrails: TurnGuardrails, into assembler: inout TurnAssembler,
    snapshot: ([Transcript.Entry], String, LanguageModelExecutorGenerationChannel.Usage?) throws -> Void
  ) async throws {
    let executorRequest = LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: working, enabledTools: setup.tools.map { Transcript.ToolDefinition(tool: $0) },
      schema: request.format.schema, generationOptions: setup.options, contextOptions: setup.contextOptions,
      metadata: request.metadata)
    var shown: String?
    var checkpoints = StreamingCheckpoints()
    _ = try await setup.runner.invocation.run(executorRequest, into: &assembler) { update in
      // A response entry opens before its first text (metadata comes first), so there is no
      // snapshot until there is text.
      guard let text = update.assembled.responseText, !text.isEmpty, text != shown else { return .proceed }
      shown = text
      // Checked before the snapshot is shown: a violation ends the stream there, and throwing
      // here cancels the executor.
      if guardrails.isActive {
        try guardrails.checkOutputPatterns(text.suffix(Self.patternTail))
        if let tail = checkpoints.textToCheck(text) { try await guardrails.checkOutput(tail) }
      }
      try snapshot(update.assembled.entries, text, update.assembled.usage)
      return .proceed
    }
    if guardrails.isActive, let text = assembler.responseText { try await guardrails.checkOutput(text) }
  }

  /// The answer: the last response entry, its text read as the requested content; for a
  /// structured request the entry records the content as one structured segment.
  private func finish(_ produced: [Transcript.Entry], prompt: Transcript.Entry?, usage: LanguageModelSession.Usage)
    throws -> Result
  {
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
    return Result(prompt: prompt, entries: entries, text: text, rawContent: raw, usage: usage)
  }

  /// Refuses an invocation the model cannot serve, before its executor is called: `working` is
  /// the transcript it would send.
  private func checkCapabilities(_ setup: InvocationSetup, sending working: Transcript) throws {
    let capabilities = setup.runner.capabilities
    if request.format.schema != nil, !capabilities.contains(.guidedGeneration) {
      throw unsupported(.guidedGeneration, "The model cannot generate output of a schema.")
    }
    if !setup.tools.isEmpty, setup.options.toolCallingMode?.kind != .disallowed, !capabilities.contains(.toolCalling) {
      throw unsupported(
        .toolCalling,
        "The session has tools, and the model cannot call tools; create the session without tools or set toolCallingMode to .disallowed."
      )
    }
    let hasAttachment = working.contains { entry in
      entry.segments.contains { if case .attachment = $0 { true } else { false } }
    }
    if hasAttachment, !capabilities.contains(.vision) {
      throw unsupported(.vision, "The transcript has image attachments, and the model cannot read images.")
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
