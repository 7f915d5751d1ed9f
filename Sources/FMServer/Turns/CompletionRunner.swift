import Foundation
import FoundationModels

/// Runs one turn (of any API's request) on the served model's executor and reports what the model writes
/// as it comes: a thinking model's thinking (`reasoning_content`), answer text (with `stop`
/// texts cut out) and tool calls, which are returned to the client and never run here. Ends
/// with the finish reason and the token counts.
struct CompletionRunner {
  let model: ServedModel

  /// What the model wrote next.
  enum Delta: Sendable {
    case reasoning(String)
    case content(String)
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
  }

  /// A request checked to fit the context, ready to generate.
  struct Prepared: Sendable {
    var executorRequest: LanguageModelExecutorGenerationRequest
    var stop: [String]
    var promptTokens: Int
  }

  /// Checks that the prompt fits the context, before anything is sent to the client.
  /// - Parameter promptParam: the request member that holds the conversation, which a
  ///   refusal names (`messages`, `input`).
  /// - Throws: `APIError` 400 with both counts when it does not.
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
    return Prepared(executorRequest: executorRequest, stop: request.stop, promptTokens: promptTokens)
  }

  /// Generates, calling `deliver` for each delta.
  /// - Throws: the executor's errors; `CancellationError` when the task is cancelled.
  func run(_ prepared: Prepared, deliver: (Delta) async throws -> Void) async throws -> Summary {
    let invocation = ModelInvocation(model: model.model, executor: model.makeExecutor())
    var filter = StopSequenceFilter(stops: prepared.stop)
    var generated = ""
    var assembler = TurnAssembler()
    let stopReason = try await invocation.run(prepared.executorRequest, into: &assembler) { update in
      if let thought = update.appendedReasoning, !thought.isEmpty { try await deliver(.reasoning(thought)) }
      guard let text = update.appendedText else { return .proceed }
      generated += text
      let visible = filter.feed(text)
      if !visible.isEmpty { try await deliver(.content(visible)) }
      // A stop text ends the answer: the rest of the generation is not needed.
      return filter.stopped ? .stop : .proceed
    }
    let rest = filter.finish()
    if !rest.isEmpty { try await deliver(.content(rest)) }
    for call in assembler.toolCalls {
      try await deliver(.toolCall(ToolCall(id: Self.callID(), name: call.name, arguments: call.arguments)))
    }
    // Cut short by a stop text, the engine reports no count: the tokens of what it wrote are it.
    let usage = assembler.usage
    let completion =
      if let usage { usage.output.totalTokenCount } else {
        try await model.tokenModel().tokenize(generated, parseSpecial: false).count
      }
    return Summary(
      finishReason: stopReason, promptTokens: prepared.promptTokens, completionTokens: completion,
      cachedPromptTokens: usage?.input.cachedTokenCount, stopText: filter.matched)
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
