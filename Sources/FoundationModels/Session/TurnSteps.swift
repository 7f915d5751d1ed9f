import Foundation
import Guardrails

/// The steps of one turn as a state machine: which hooks run, which texts are checked, what each
/// invocation sends, which tools run, and when the turn ends or is refused. It never calls a
/// model, a tool, a hook or the guardrails.
///
/// A driver (`TurnDriver`) performs each `TurnStep` and reports back: `prepared(_:conversation:)`
/// after `.prepare`, `invoked(_:usage:conversation:)` after `.invoke`, `toolsRan(_:outputs:)`
/// after `.runTools`, and `next(conversation:)` after the others. `conversation` is the turn's
/// conversation as it is then (hooks and tools may rewrite it).
///
/// A round: prepare the invocation; on the first, the prompt hooks; check the instructions (when
/// they changed) and, on the first, the prompt; invoke. Then either the answer — its refusal
/// check and the response hooks — or the tool-call hooks, the tools, the check of their outputs
/// and the tool-output hooks, and the next round.
struct TurnSteps {
  let request: TurnRequest
  /// The preparation of the current invocation.
  private(set) var setup: InvocationSetup?
  /// Every entry the finished invocations and the tools produced.
  private(set) var produced: [Transcript.Entry] = []
  /// The usage of the finished invocations.
  private(set) var usage = LanguageModelSession.Usage.zero
  /// The turn's prompt as the conversation had it when last read.
  private(set) var prompt: Transcript.Entry?
  private var round = 0
  private var checkedInstructions: String?
  private var callCounts: [String: Int] = [:]
  /// Steps decided ahead, performed before `then`.
  private var pending: [TurnStep] = []
  private var then = Then.prepare

  /// What follows the pending steps.
  private enum Then {
    case prepare
    case checkInputs
    case invoke
    case runTools(Transcript.ToolCalls)
    /// The tool outputs, checked: they join the produced entries, then the tool-output hooks run.
    case keepOutputs(Transcript.ToolCalls, [Transcript.Entry])
    case finish(TurnResult)
  }

  /// - Parameter prompt: the turn's prompt, last in its conversation when it begins.
  init(request: TurnRequest, prompt: Transcript.Entry?) {
    self.request = request
    self.prompt = prompt
  }

  /// The first step.
  func start() -> TurnStep { .prepare }

  /// The step after the driver prepared the invocation.
  mutating func prepared(_ setup: InvocationSetup, conversation: ArraySlice<Transcript.Entry>) throws -> TurnStep {
    self.setup = setup
    if round == 0, case .prompt(let sent)? = prompt {
      // The hooks see the prompt at the end of the history, and may rewrite both.
      runHooks(setup.hooks(for: .prompt(sent)))
    }
    then = .checkInputs
    return try next(conversation: conversation)
  }

  /// The step after the driver ran hooks or checked a text.
  mutating func next(conversation: ArraySlice<Transcript.Entry>) throws -> TurnStep {
    if !pending.isEmpty { return pending.removeFirst() }
    switch then {
    case .prepare:
      guard round < LanguageModelSession.maximumToolRounds else {
        throw LanguageModelError.timeout(
          .init(
            debugDescription:
              "The model called tools in \(LanguageModelSession.maximumToolRounds) rounds without answering."))
      }
      return .prepare
    case .checkInputs:
      prompt = Self.prompt(in: conversation)
      // The instructions are checked again when a profile or tool changed them between rounds.
      if let instructions = setup?.instructions.map({ SegmentJoining.text(of: $0.segments) }),
        instructions != checkedInstructions
      {
        pending.append(.checkInput(instructions, source: "the instructions"))
        checkedInstructions = instructions
      }
      if round == 0, let prompt {
        pending.append(.checkInput(SegmentJoining.text(of: prompt.segments), source: "the prompt"))
      }
      then = .invoke
      return try next(conversation: conversation)
    case .invoke:
      return .invoke(try invocationRequest(conversation: conversation))
    case .runTools(let calls):
      return .runTools(calls)
    case .keepOutputs(let calls, let outputs):
      produced += outputs
      runHooks(
        zip(calls, outputs).flatMap { call, entry -> [ProfileHook.Action<>] in
          guard case .toolOutput(let output) = entry, let setup else { return [] }
          return setup.hooks(for: .toolOutput(call, output))
        })
      round += 1
      then = .prepare
      return try next(conversation: conversation)
    case .finish(let result):
      return .finish(result)
    }
  }

  /// The step after an invocation produced `entries`.
  /// - Throws: a ``ModelRefusal`` when a structured answer reads as a refusal; the parsing error
  ///   of an incomplete answer; `LanguageModelError.timeout` when the model repeats a call.
  mutating func invoked(
    _ entries: [Transcript.Entry], usage invocationUsage: LanguageModelExecutorGenerationChannel.Usage?,
    conversation: ArraySlice<Transcript.Entry>
  ) throws -> TurnStep {
    if let invocationUsage { usage = usage.adding(invocationUsage) }
    produced += entries
    guard case .toolCalls(let calls)? = entries.last, !calls.isEmpty else {
      let result = try answer(prompt: Self.prompt(in: conversation))
      if request.format.schema != nil, let refusal = Self.refusalText(in: result.rawContent) {
        throw refusalError(
          exchange: result.entries, conversation: conversation,
          debugDescription: "The model declined to generate the requested content: \(refusal)")
      }
      if case .response(let response)? = result.entries.last, let setup {
        runHooks(setup.hooks(for: .response(response)))
      }
      then = .finish(result)
      return try next(conversation: conversation)
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
    if let setup { runHooks(calls.flatMap { setup.hooks(for: .toolCall($0)) }) }
    then = .runTools(calls)
    return try next(conversation: conversation)
  }

  /// The step after the tools answered `calls` with `outputs` (in call order).
  mutating func toolsRan(
    _ calls: Transcript.ToolCalls, outputs: [Transcript.Entry], conversation: ArraySlice<Transcript.Entry>
  ) throws -> TurnStep {
    for case .toolOutput(let output) in outputs {
      pending.append(
        .checkInput(SegmentJoining.text(of: output.segments), source: "the output of the tool '\(output.toolName)'"))
    }
    then = .keepOutputs(calls, outputs)
    return try next(conversation: conversation)
  }

  /// The error a failed turn reports, with what it keeps: `partial` is what the failing
  /// invocation had sent. A provider's refusal carries the exchange it refused, for its
  /// explanation.
  func failure(_ error: any Error, partial: [Transcript.Entry], conversation: ArraySlice<Transcript.Entry>)
    -> TurnDriver.Failure
  {
    var reported = error
    if case LanguageModelError.refusal(let payload) = error, setup != nil {
      reported = refusalError(
        exchange: produced + partial, conversation: conversation, debugDescription: payload.debugDescription)
    }
    return TurnDriver.Failure(
      error: reported, entries: produced + partial, profilePolicy: setup?.transcriptErrorHandlingPolicy)
  }

  /// Queues a step that runs `hooks`, when there are any.
  private mutating func runHooks(_ hooks: [ProfileHook.Action<>]) {
    if !hooks.isEmpty { pending.append(.runHooks(hooks)) }
  }

  // MARK: Invocation

  /// The request of the next invocation: the instructions, then the conversation, then the
  /// entries the turn has produced, through the profile's history transform — which gets all of
  /// it, instructions included, and whose result is sent as it is.
  /// - Throws: `LanguageModelError.unsupportedCapability` when the model cannot serve it.
  private func invocationRequest(conversation: ArraySlice<Transcript.Entry>) throws
    -> LanguageModelExecutorGenerationRequest
  {
    guard let setup else { preconditionFailure("a turn invokes its model after preparing the invocation") }
    let working = Transcript(
      entries: setup.historyTransform((setup.instructions.map { [$0] } ?? []) + conversation + produced))
    try checkCapabilities(setup, sending: working)
    return LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: working, enabledTools: setup.tools.map { Transcript.ToolDefinition(tool: $0) },
      schema: request.format.schema, generationOptions: setup.options, contextOptions: setup.contextOptions,
      metadata: request.metadata)
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

  // MARK: Answer

  /// The answer: the last response entry, its text read as the requested content; for a
  /// structured request the entry records the content as one structured segment.
  private func answer(prompt: Transcript.Entry?) throws -> TurnResult {
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
    return TurnResult(prompt: prompt, entries: entries, text: text, rawContent: raw, usage: usage)
  }

  /// A refusal of `exchange`, the entries the model refused in, after the instructions and the
  /// conversation.
  private func refusalError(
    exchange: [Transcript.Entry], conversation: ArraySlice<Transcript.Entry>, debugDescription: String
  ) -> ModelRefusal {
    guard let setup else { preconditionFailure("a model refuses after its invocation was prepared") }
    return ModelRefusal(
      entries: (setup.instructions.map { [$0] } ?? []) + conversation + exchange, runner: setup.runner,
      debugDescription: debugDescription)
  }

  /// The first string of a structured answer that reads as a refusal, if any.
  static func refusalText(in content: GeneratedContent) -> String? {
    switch content.kind {
    case .string(let text): return RefusalDetector.isRefusal(text) ? text : nil
    case .array(let elements): return elements.lazy.compactMap(refusalText).first
    case .structure(let properties, let keys): return keys.lazy.compactMap { properties[$0].flatMap(refusalText) }.first
    default: return nil
    }
  }

  /// The turn's prompt in `conversation`: its last entry, when that is a prompt.
  static func prompt(in conversation: ArraySlice<Transcript.Entry>) -> Transcript.Entry? {
    guard case .prompt? = conversation.last else { return nil }
    return conversation.last
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
