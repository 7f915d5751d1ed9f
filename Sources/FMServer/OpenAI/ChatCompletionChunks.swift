import Foundation
import FoundationModels
import JSON

/// The JSON of chat-completion answers in OpenAI's exact shapes: the whole `chat.completion`,
/// and the `chat.completion.chunk`s of a stream (one `id` and `created` for all of them).
struct ChatCompletionChunks {
  let id: String
  let created: Int
  let model: String

  init(model: String) {
    id = "chatcmpl-" + String(CompletionRunner.callID().dropFirst(5))
    created = Int(Date().timeIntervalSince1970)
    self.model = model
  }

  /// The first chunk: the role only.
  var roleChunk: String {
    chunk(delta: [member("role", .string("assistant")), member("content", .string(""))], finishReason: nil)
  }

  func chunk(for delta: CompletionRunner.Delta, index: Int) -> String {
    switch delta {
    case .reasoning(let text):
      return chunk(delta: [member("reasoning_content", .string(text))], finishReason: nil)
    case .content(let text):
      return chunk(delta: [member("content", .string(text))], finishReason: nil)
    case .toolCallStarted(let call):
      // The call's first chunk names it; its arguments follow in the next.
      var json = Self.toolCallJSON(call)
      if case .object(let members) = json { json = .object([member("index", .integer(index))] + members) }
      return chunk(delta: [member("tool_calls", .array([json]))], finishReason: nil)
    case .toolCall(let call):
      let json = JSONValue.object([
        member("index", .integer(index)), member("function", .object([member("arguments", .string(call.arguments))])),
      ])
      return chunk(delta: [member("tool_calls", .array([json]))], finishReason: nil)
    }
  }

  /// The last chunk of the answer: an empty delta and why it ended.
  func finalChunk(finishReason: String) -> String {
    chunk(delta: [], finishReason: finishReason)
  }

  /// The usage chunk (`stream_options.include_usage`): no choices.
  func usageChunk(_ summary: CompletionRunner.Summary) -> String {
    envelope("chat.completion.chunk", choices: [], usage: Self.usage(summary)).compactText
  }

  /// The whole answer of a request without `stream`.
  func completion(
    content: String, reasoning: String, calls: [CompletionRunner.ToolCall], summary: CompletionRunner.Summary
  ) -> String {
    var message = [member("role", .string("assistant"))]
    message.append(member("content", content.isEmpty && !calls.isEmpty ? .null : .string(content)))
    // A thinking model's thinking, as llama-server, vLLM and DeepSeek's API return it.
    if !reasoning.isEmpty { message.append(member("reasoning_content", .string(reasoning))) }
    if !calls.isEmpty { message.append(member("tool_calls", .array(calls.map(Self.toolCallJSON)))) }
    message.append(member("refusal", .null))
    let choice = JSONValue.object([
      member("index", .number(.zero)), member("message", .object(message)), member("logprobs", .null),
      member("finish_reason", .string(summary.openAIFinishReason)),
    ])
    return envelope("chat.completion", choices: [choice], usage: Self.usage(summary)).compactText
  }

  private func chunk(delta: [JSONValue.Member], finishReason: String?) -> String {
    let choice = JSONValue.object([
      member("index", .number(.zero)), member("delta", .object(delta)), member("logprobs", .null),
      member("finish_reason", finishReason.map { .string($0) } ?? .null),
    ])
    return envelope("chat.completion.chunk", choices: [choice], usage: nil).compactText
  }

  private func envelope(_ object: String, choices: [JSONValue], usage: JSONValue?) -> JSONValue {
    var members = [
      member("id", .string(id)), member("object", .string(object)),
      member("created", .number(ExactDecimal(created))), member("model", .string(model)),
      member("system_fingerprint", .string("fm")), member("choices", .array(choices)),
    ]
    if let usage { members.append(member("usage", usage)) }
    return .object(members)
  }

  /// OpenAI's usage object.
  ///
  /// `prompt_tokens_details.cached_tokens` counts the prompt tokens the model found in its cache (a
  /// conversation's earlier turns, a repeated prompt); it is left out when the engine did not
  /// report it (a stop text ended the generation first).
  static func usage(_ summary: CompletionRunner.Summary) -> JSONValue {
    var members = [
      member("prompt_tokens", .number(ExactDecimal(summary.promptTokens))),
      member("completion_tokens", .number(ExactDecimal(summary.completionTokens))),
      member("total_tokens", .number(ExactDecimal(summary.promptTokens + summary.completionTokens))),
    ]
    if let cached = summary.cachedPromptTokens {
      members.append(member("prompt_tokens_details", .object([member("cached_tokens", .number(ExactDecimal(cached)))])))
    }
    return .object(members)
  }

  static func toolCallJSON(_ call: CompletionRunner.ToolCall) -> JSONValue {
    .object([
      member("id", .string(call.id)), member("type", .string("function")),
      member(
        "function", .object([member("name", .string(call.name)), member("arguments", .string(call.arguments))])),
    ])
  }
}
