import Foundation
import FoundationModels
import JSON

/// Anthropic's Messages API on the served model: `POST /v1/messages` (streamed or not) and
/// `POST /v1/messages/count_tokens`.
///
/// A client that resends the whole conversation every turn (as coding agents do) lands on the
/// slot whose cache holds the longest prefix of its prompt, which evaluates only what is new.
struct MessagesRoutes {
  let model: ServedModel
  /// The CORS header fields every answer carries.
  let headers: [(name: String, value: String)]

  /// Answers `POST /v1/messages` for `request`; returns the summary for the metrics.
  func create(_ request: MessagesRequest, writer: ResponseWriter) async throws -> CompletionRunner.Summary {
    let runner = CompletionRunner(model: model)
    let prepared = try await runner.prepare(request.turn)
    let id = "msg_" + String(CompletionRunner.callID().dropFirst(5))
    var content = MessageContent()
    let stream = EventStream(writer: writer, headers: headers)
    func emit(_ type: String, _ members: [JSONValue.Member]) async throws {
      try await stream.send(event: type, data: JSONValue.object([member("type", .string(type))] + members).compactText)
    }
    func emit(_ events: [MessageContent.Event]) async throws {
      guard request.stream else { return }
      if !stream.hasStarted {
        let usage = JSONValue.object([
          member("input_tokens", .integer(prepared.promptTokens)), member("output_tokens", .integer(0)),
        ])
        try await emit("message_start", [member("message", message(id, content: [], stop: nil, usage: usage))])
        try await emit("ping", [])
      }
      for event in events { try await emit(event.type, event.members) }
    }
    do {
      let summary = try await runner.run(prepared, whole: !request.stream) { delta in
        try await emit(content.feed(delta))
      }
      try await emit(content.finish())
      let usage = Self.usage(summary)
      let stop = Self.stopReason(summary)
      if request.stream {
        try await emit(
          "message_delta",
          [
            member(
              "delta",
              .object([member("stop_reason", .string(stop)), member("stop_sequence", .optional(summary.stopText))])),
            member("usage", usage),
          ])
        try await emit("message_stop", [])
        try await stream.end()
      } else {
        let body = message(id, content: content.blocks, stop: (stop, summary.stopText), usage: usage)
        try await writer.send(HTTPResponse.json(.ok, body.compactText, headers: headers))
      }
      return summary
    } catch  where stream.hasStarted && EventStream.reports(error) {
      let failure = OpenAIServer.apiError(for: error)
      try await stream.send(event: "error", data: failure.anthropicBody)
      try await stream.end()
      throw error
    }
  }

  /// `POST /v1/messages/count_tokens`: the prompt's tokens, as the model would evaluate them.
  func countTokens(_ request: MessagesRequest) async throws -> String {
    let count = try await model.renderedPrompt(for: request.turn.executorRequest).tokenCount
    return JSONValue.object([member("input_tokens", .integer(count))]).compactText
  }

  private func message(_ id: String, content: [JSONValue], stop: (String, String?)?, usage: JSONValue) -> JSONValue {
    .object([
      member("id", .string(id)), member("type", .string("message")), member("role", .string("assistant")),
      member("model", .string(model.id)), member("content", .array(content)),
      member("stop_reason", .optional(stop?.0)), member("stop_sequence", .optional(stop?.1)), member("usage", usage),
    ])
  }

  /// Anthropic's `stop_reason`.
  static func stopReason(_ summary: CompletionRunner.Summary) -> String {
    if summary.contentFiltered { return "refusal" }
    if summary.stopText != nil { return "stop_sequence" }
    switch summary.finishReason {
    case .toolCalls: return "tool_use"
    case .maximumTokens: return "max_tokens"
    case .endOfTurn, .stopped: return "end_turn"
    }
  }

  /// Anthropic's usage: `input_tokens` are those evaluated, beside `cache_read_input_tokens`
  /// found in the cache (their sum is the prompt).
  static func usage(_ summary: CompletionRunner.Summary) -> JSONValue {
    let cached = summary.cachedPromptTokens ?? 0
    return .object([
      member("input_tokens", .integer(summary.promptTokens - cached)),
      member("cache_creation_input_tokens", .integer(0)), member("cache_read_input_tokens", .integer(cached)),
      member("output_tokens", .integer(summary.completionTokens)),
    ])
  }
}
