import Foundation
import FoundationModels

/// Runs one turn (of any API's request) on the served model's executor and reports what the model writes
/// as it comes: a thinking model's thinking (`reasoning_content`), answer text (with `stop`
/// texts cut out) and tool calls, which are returned to the client and never run here. Ends
/// with the finish reason and the token counts.
struct CompletionRunner {
  let model: ServedModel

  /// What the model wrote next.
  ///
  /// Calls come one after another: each `toolCallStarted` (its id and name, as soon as the model
  /// opens the call) is followed by its `toolCall` (the same id, with the arguments complete)
  /// before the next call starts.
  enum Delta: Sendable {
    case reasoning(String)
    case content(String)
    /// A call the model opened: its arguments are empty until its `toolCall`.
    case toolCallStarted(ToolCall)
    case toolCall(ToolCall)
  }

  struct ToolCall: Sendable {
    var id: String
    var name: String
    var arguments: String
  }

  struct Summary: Sendable {
    /// Why the generation ended (`finish_reason`).
    var finishReason: InvocationStopReason
    var promptTokens: Int
    var completionTokens: Int
    /// Prompt tokens the model found in its cache (KV reuse) and did not evaluate again, as
    /// the engine reports them when the generation ends; nil when a stop text ended it first.
    var cachedPromptTokens: Int?
    /// The stop text that ended the answer, if one did.
    var stopText: String?
    /// Whether the guardrails (`--guardrails`) blocked the answer: it ends where they did.
    var contentFiltered = false

    /// OpenAI's `finish_reason`: `content_filter` for an answer the guardrails blocked.
    var openAIFinishReason: String { contentFiltered ? "content_filter" : finishReason.openAIFinishReason }
  }

  /// A request checked to fit the context, ready to generate.
  struct Prepared: Sendable {
    var executorRequest: LanguageModelExecutorGenerationRequest
    var stop: [String]
    var promptTokens: Int
    /// The request's guardrail checks, when the server runs them.
    var checks: RequestGuardrails.Checks?
  }

  /// Checks that the prompt fits the context, and with `--guardrails` what it brings, before
  /// anything is sent to the client.
  /// - Parameter promptParam: the request member that holds the conversation, which a
  ///   refusal names (`messages`, `input`).
  /// - Throws: `APIError` 400 with both counts when it does not fit, and 400 `content_filter`
  ///   naming the blocked text's source and category when the guardrails block it.
  func prepare(_ request: TurnRequest, promptParam: String = "messages") async throws -> Prepared {
    var executorRequest = request.executorRequest
    let promptTokens = try await model.renderedPrompt(for: executorRequest).tokenCount
    let room = model.contextSize - promptTokens
    guard room > 0 else {
      throw APIError.invalid(
        "This model's maximum context length is \(model.contextSize) tokens. However, your \(promptParam) resulted in \(promptTokens) tokens.",
        param: promptParam, code: "context_length_exceeded")
    }
    // The answer may fill what the context has left; past that it ends with `length`.
    let asked = executorRequest.generationOptions.maximumResponseTokens
    executorRequest.generationOptions.maximumResponseTokens = min(asked ?? room, room)
    let checks = model.guardrails?.checks(generatesString: executorRequest.schema == nil)
    try await RequestGuardrails.Checks.refusingBlockedInput(param: promptParam) {
      try await checks?.checkInputs(of: executorRequest.transcript)
    }
    return Prepared(executorRequest: executorRequest, stop: request.stop, promptTokens: promptTokens, checks: checks)
  }

  /// Generates, calling `deliver` for each delta.
  ///
  /// With `--guardrails`, a blocked answer ends where it was blocked, without the text that
  /// blocked it; `whole` (a request without `stream`) holds every delta until the whole answer
  /// passed, so a blocked one delivers nothing.
  /// - Throws: the executor's errors; `CancellationError` when the task is cancelled.
  func run(_ prepared: Prepared, whole: Bool = false, deliver: (Delta) async throws -> Void) async throws -> Summary {
    let invocation = ModelInvocation(model: model.model, executor: model.makeExecutor())
    var filter = StopSequenceFilter(stops: prepared.stop)
    var generated = ""
    // What the client gets of the answer: without a stop text and what followed it.
    var visibleText = ""
    var assembler = TurnAssembler()
    var calls = CallProgress()
    var answer = GuardedAnswer<Delta>(checks: prepared.checks, whole: whole)
    func send(_ delta: Delta) async throws {
      if case .content(let text) = delta { visibleText += text }
      try await answer.send(delta, to: deliver)
    }
    let stopReason = try await invocation.run(prepared.executorRequest, into: &assembler) { update in
      if let thought = update.appendedReasoning, !thought.isEmpty { try await send(.reasoning(thought)) }
      let opened = update.assembled.toolCalls
      if opened.count > calls.started {
        // Text held back as a possible stop text's start is the answer's: it came before the call.
        let heldBack = filter.finish()
        if !heldBack.isEmpty { try await send(.content(heldBack)) }
        for delta in calls.deltas(for: opened, finished: false) { try await send(delta) }
      }
      guard let text = update.appendedText else { return .proceed }
      generated += text
      // Checked before it is sent: a blocked answer ends here, without the text that blocked it.
      if try await answer.blocks(growing: generated) { return .stop }
      let visible = filter.feed(text)
      if !visible.isEmpty { try await send(.content(visible)) }
      // A stop text ends the answer: the rest of the generation is not needed.
      return filter.stopped ? .stop : .proceed
    }
    let rest = answer.isBlocked ? "" : filter.finish()
    try await answer.checkWhole(visibleText + rest)
    if !answer.isBlocked, !rest.isEmpty { try await send(.content(rest)) }
    // Calls are sent once opened; a blocked answer opens no more.
    if !answer.isBlocked || calls.started > 0 {
      for delta in calls.deltas(for: assembler.toolCalls, finished: true) { try await send(delta) }
    }
    try await answer.release(to: deliver)
    // Cut short by a stop text, the engine reports no count: the tokens of what it wrote are it.
    let usage = assembler.usage
    let completion =
      if let usage { usage.output.totalTokenCount } else {
        try await model.tokenModel().tokenize(generated, parseSpecial: false).count
      }
    return Summary(
      finishReason: stopReason, promptTokens: prepared.promptTokens, completionTokens: completion,
      cachedPromptTokens: usage.map { Self.cached(prompt: prepared.promptTokens, engine: $0.input) },
      stopText: filter.matched, contentFiltered: answer.isBlocked)
  }

  /// The calls told so far: each is started when the model opens it and complete when the next
  /// opens or the generation ends (until then its arguments may still grow).
  private struct CallProgress {
    private var ids: [String] = []
    private var completed = 0
    var started: Int { ids.count }

    /// The deltas for the calls `opened` so far; `finished` completes the last one too.
    mutating func deltas(for opened: [(id: String, name: String, arguments: String)], finished: Bool) -> [Delta] {
      var deltas: [Delta] = []
      func complete(upTo end: Int) {
        while completed < end {
          let call = opened[completed]
          deltas.append(.toolCall(ToolCall(id: ids[completed], name: call.name, arguments: call.arguments)))
          completed += 1
        }
      }
      while ids.count < opened.count {
        complete(upTo: ids.count)
        ids.append(CompletionRunner.callID())
        deltas.append(
          .toolCallStarted(ToolCall(id: ids[ids.count - 1], name: opened[ids.count - 1].name, arguments: "")))
      }
      if finished { complete(upTo: opened.count) }
      return deltas
    }
  }

  /// The prompt tokens found in the cache, of the `prompt` tokens counted for the client: all but
  /// those the engine evaluated. (The engine's own counts may be of the prompt spliced onto the
  /// cache, spelled in the model's own tokens: `PromptSplice`.)
  static func cached(prompt: Int, engine: LanguageModelExecutorGenerationChannel.Usage.Input) -> Int {
    min(max(prompt - (engine.totalTokenCount - engine.cachedTokenCount), 0), max(prompt - 1, 0))
  }

  /// A tool-call id in OpenAI's form: `call_` and 24 letters and digits.
  static func callID() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    return "call_" + String((0..<24).map { _ in alphabet.randomElement() ?? "A" })
  }
}

extension InvocationStopReason {
  /// OpenAI's `finish_reason`: `tool_calls`, `length` or `stop` (also for a stop text).
  var openAIFinishReason: String {
    switch self {
    case .toolCalls: "tool_calls"
    case .maximumTokens: "length"
    case .endOfTurn, .stopped: "stop"
    }
  }
}
