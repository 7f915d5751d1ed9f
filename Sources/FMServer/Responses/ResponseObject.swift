import FoundationModels
import JSON

/// The `response` object in OpenAI's shape: its status, output items and usage, with what it
/// repeats of its request.
struct ResponseObject {
  let id: String
  let createdAt: Int
  let model: String
  let request: ResponsesRequest

  enum Status: String {
    case inProgress = "in_progress"
    case completed, incomplete, failed
  }

  /// - Parameters:
  ///   - usage: the token counts, once the response is finished.
  ///   - error: what failed, for `failed`.
  ///   - incompleteReason: why it is `incomplete`: `max_output_tokens`, or `content_filter` for
  ///     an answer the guardrails blocked.
  func json(
    _ status: Status, output: [JSONValue] = [], usage: JSONValue? = nil, error: APIError? = nil,
    incompleteReason: String = "max_output_tokens"
  ) -> JSONValue {
    let echo = request.echo
    return .object([
      member("id", .string(id)), member("object", .string("response")), member("created_at", .integer(createdAt)),
      member("status", .string(status.rawValue)), member("background", .bool(false)),
      member(
        "error",
        error.map {
          .object([member("code", .string($0.code ?? "server_error")), member("message", .string($0.message))])
        } ?? .null),
      member(
        "incomplete_details",
        status == .incomplete ? .object([member("reason", .string(incompleteReason))]) : .null),
      member("instructions", .optional(request.instructions)),
      member("max_output_tokens", request.options.maximumResponseTokens.map(JSONValue.integer) ?? .null),
      member("model", .string(model)), member("output", .array(output)),
      member("parallel_tool_calls", .bool(!request.oneToolCall)),
      member("previous_response_id", .optional(request.previousResponseID)), member("reasoning", echo.reasoning),
      member("store", .bool(request.store)),
      member("temperature", request.options.temperature.map(JSONValue.double) ?? .null), member("text", echo.text),
      member("tool_choice", echo.toolChoice), member("tools", echo.tools),
      member("top_p", request.options.samplingMode.flatMap(Self.topP).map(JSONValue.double) ?? .null),
      member("truncation", .string("disabled")), member("usage", usage ?? .null), member("user", .optional(echo.user)),
      member("metadata", echo.metadata),
    ])
  }

  /// OpenAI's Responses usage: input tokens (those found in the cache among them), output
  /// tokens (the thinking among them).
  static func usage(_ summary: CompletionRunner.Summary, reasoningTokens: Int) -> JSONValue {
    .object([
      member("input_tokens", .integer(summary.promptTokens)),
      member("input_tokens_details", .object([member("cached_tokens", .integer(summary.cachedPromptTokens ?? 0))])),
      member("output_tokens", .integer(summary.completionTokens)),
      member("output_tokens_details", .object([member("reasoning_tokens", .integer(reasoningTokens))])),
      member("total_tokens", .integer(summary.promptTokens + summary.completionTokens)),
    ])
  }

  private static func topP(_ mode: GenerationOptions.SamplingMode) -> Double? {
    if case .randomProbabilityThreshold(let threshold, _) = mode.kind { return threshold }
    return nil
  }
}
