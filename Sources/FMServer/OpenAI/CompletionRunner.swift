import Foundation
import FoundationModels

/// Runs one chat completion on the served model's executor and reports what the model writes
/// as it comes: answer text (with `stop` texts cut out) and tool calls, which are returned to
/// the client and never run here. Ends with the finish reason and the token counts.
struct CompletionRunner {
  let model: ServedModel

  /// What the model wrote next.
  enum Delta: Sendable {
    case content(String)
    case toolCall(ToolCall)
  }

  struct ToolCall: Sendable {
    var id: String
    var name: String
    var arguments: String
  }

  struct Summary: Sendable {
    /// `stop`, `length` or `tool_calls`.
    var finishReason: String
    var promptTokens: Int
    var completionTokens: Int
    /// Prompt tokens the model found in its cache (KV reuse) and did not evaluate again, as
    /// the engine reports them when the generation ends; nil when a stop text ended it first.
    var cachedPromptTokens: Int?
  }

  /// A request checked to fit the context, ready to generate.
  struct Prepared: Sendable {
    var request: ChatCompletionRequest
    var executorRequest: LanguageModelExecutorGenerationRequest
    var promptTokens: Int
  }

  /// Checks that the prompt fits the context, before anything is sent to the client.
  /// - Throws: `APIError` 400 with both counts when it does not.
  func prepare(_ request: ChatCompletionRequest) async throws -> Prepared {
    var executorRequest = request.executorRequest
    let promptTokens = try await model.renderedPrompt(for: executorRequest).tokenCount
    let room = model.contextSize - promptTokens
    guard room > 0 else {
      throw APIError.invalid(
        "This model's maximum context length is \(model.contextSize) tokens. However, your messages resulted in \(promptTokens) tokens.",
        param: "messages", code: "context_length_exceeded")
    }
    // The answer may fill what the context has left; past that it ends with `length`.
    let asked = executorRequest.generationOptions.maximumResponseTokens
    executorRequest.generationOptions.maximumResponseTokens = min(asked ?? room, room)
    return Prepared(request: request, executorRequest: executorRequest, promptTokens: promptTokens)
  }

  /// Generates, calling `deliver` for each delta.
  /// - Throws: the executor's errors; `CancellationError` when the task is cancelled.
  func run(_ prepared: Prepared, deliver: (Delta) async throws -> Void) async throws -> Summary {
    let request = prepared.request
    let promptTokens = prepared.promptTokens
    let executorRequest = prepared.executorRequest
    let sent = executorRequest
    let channel = LanguageModelExecutorGenerationChannel()
    let executor = model.makeExecutor()
    let served = model.model
    var filter = StopSequenceFilter(stops: request.stop)
    var calls: [String: (name: String, arguments: String)] = [:]
    var callOrder: [String] = []
    // The engine's count of this invocation's tokens, on the answer or on the tool calls.
    var usage: LanguageModelExecutorGenerationChannel.Usage?
    var reachedMaximum = false
    var generated = ""
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        do {
          try await executor.respond(to: sent, model: served, streamingInto: channel)
          channel.finish()
        } catch {
          channel.finish(throwing: error)
        }
      }
      for try await event in channel {
        switch event {
        case let response as LanguageModelExecutorGenerationChannel.Response:
          switch response.action {
          case .appendText(let fragment):
            generated += fragment.content
            let visible = filter.feed(fragment.content)
            if !visible.isEmpty { try await deliver(.content(visible)) }
          case .updateUsage(let reported):
            usage = reported
          case .updateMetadata(let metadata):
            reachedMaximum = LocalModelFigures(metadata: metadata.values)?.reachedMaximumTokens ?? reachedMaximum
          default:
            break
          }
        case let toolCalls as LanguageModelExecutorGenerationChannel.ToolCalls:
          switch toolCalls.action {
          case .toolCall(let call):
            if case .appendArguments(let fragment) = call.action {
              if calls[call.id] == nil { callOrder.append(call.id) }
              calls[call.id, default: (call.name, "")].arguments += fragment.content
            }
          case .updateUsage(let reported):
            usage = reported
          default:
            break
          }
        default:
          break
        }
        if filter.stopped { break }
      }
      // A stop text ends the answer: the rest of the generation is not needed.
      group.cancelAll()
      if !filter.stopped { try await group.waitForAll() }
    }
    let rest = filter.finish()
    if !rest.isEmpty { try await deliver(.content(rest)) }
    for id in callOrder {
      guard let call = calls[id] else { continue }
      try await deliver(.toolCall(ToolCall(id: Self.callID(), name: call.name, arguments: call.arguments)))
    }
    let finishReason =
      !callOrder.isEmpty ? "tool_calls" : filter.stopped ? "stop" : reachedMaximum ? "length" : "stop"
    // Cut short by a stop text, the engine reports no count: the tokens of what it wrote are it.
    let completion =
      if let usage { usage.output.totalTokenCount } else {
        try await model.tokenModel().tokenize(generated, parseSpecial: false).count
      }
    return Summary(
      finishReason: finishReason, promptTokens: promptTokens, completionTokens: completion,
      cachedPromptTokens: usage?.input.cachedTokenCount)
  }

  /// A tool-call id in OpenAI's form: `call_` and 24 letters and digits.
  static func callID() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    return "call_" + String((0..<24).map { _ in alphabet.randomElement() ?? "A" })
  }
}
