import Foundation
import FoundationModels
import JSON

/// The routes of `fm serve`: OpenAI's `/v1/models`, `/v1/chat/completions`, Responses API
/// (`/v1/responses`) and legacy `/v1/completions`, llama-server's `/tokenize`, `/detokenize`
/// and `/apply-template`, `/health` and `/metrics`; with the API key check, CORS when
/// configured, and OpenAI-shaped errors for everything refused.
public final class OpenAIServer: HTTPResponder {
  let model: ServedModel
  let configuration: ServerConfiguration
  let metrics = ServerMetrics()
  let responseStore: ResponseStore

  /// - Parameter responseStore: where `/v1/responses` keeps responses (in memory, with the
  ///   default limits, when not given).
  public init(model: ServedModel, configuration: ServerConfiguration, responseStore: ResponseStore = ResponseStore()) {
    self.model = model
    self.configuration = configuration
    self.responseStore = responseStore
  }

  public func refusal(_ error: HTTPError) -> HTTPResponse {
    withCORS(APIError(error.status, error.message, code: "http_\(error.status.code)").response)
  }

  public func respond(to request: HTTPRequest, writer: ResponseWriter) async {
    metrics.begin()
    var status = 500
    defer { metrics.end(path: request.path, status: status) }
    do {
      status = try await route(request, writer: writer)
    } catch let error as APIError {
      status = error.status.code
      await send(error, to: writer)
    } catch {
      let apiError = Self.apiError(for: error)
      status = apiError.status.code
      await send(apiError, to: writer)
    }
  }

  /// Answers `request`; returns the status sent.
  private func route(_ request: HTTPRequest, writer: ResponseWriter) async throws -> Int {
    let method = request.method == "HEAD" ? "GET" : request.method
    if method == "OPTIONS", let origin = configuration.corsOrigin {
      try await writer.send(
        HTTPResponse(
          status: .noContent,
          headers: corsHeaders(origin) + [
            ("Access-Control-Allow-Methods", "GET, POST, OPTIONS"),
            ("Access-Control-Allow-Headers", "Authorization, Content-Type"), ("Access-Control-Max-Age", "600"),
          ]))
      return 204
    }
    guard let endpoint = Endpoint(path: request.path) else {
      throw APIError(.notFound, "Unknown path '\(request.path)'", code: "unknown_url")
    }
    guard endpoint.methods.contains(method) else {
      let allowed = endpoint.methods.joined(separator: ", ")
      throw APIError(
        .methodNotAllowed, "\(request.path) takes \(allowed), not \(request.method)", code: "method_not_allowed",
        headers: [("Allow", allowed)])
    }
    if endpoint != .health, let key = configuration.apiKey, request.header("Authorization") != "Bearer \(key)" {
      throw APIError(
        .unauthorized,
        request.header("Authorization") == nil
          ? "Missing API key: send it as 'Authorization: Bearer KEY'" : "Incorrect API key provided",
        type: "authentication_error", code: "invalid_api_key")
    }
    switch endpoint {
    case .health:
      try await sendJSON(health.compactText, to: writer)
    case .models:
      let entry = JSONValue.object([
        member("id", .string(model.id)), member("object", .string("model")), member("created", .number(.zero)),
        member("owned_by", .string("fm")),
        // vLLM's field for the context a request may fill, which clients read (our remote
        // model's `contextSize()` among them).
        member("max_model_len", .number(ExactDecimal(model.contextSize))),
      ])
      try await sendJSON(
        JSONValue.object([member("object", .string("list")), member("data", .array([entry]))]).compactText, to: writer)
    case .metrics:
      try await writer.send(
        withCORS(
          HTTPResponse(
            status: .ok, headers: [("Content-Type", "text/plain; version=0.0.4")],
            body: Array(metrics.text(model: model).utf8))))
    case .tokenizer:
      try await sendJSON(try await TokenizerRoutes(model: model).answer(request.path, body: request.body), to: writer)
    case .chatCompletions:
      try await chatCompletion(request, writer: writer)
    case .responses:
      let parsed = try ResponsesRequest(body: request.body)
      let served = try servedModel(parsed.model)
      let summary = try await admitted {
        try await ResponsesRoutes(model: served, store: responseStore, headers: corsHeaders()).create(
          parsed, writer: writer)
      }
      countTokens(summary)
    case .textCompletions:
      let parsed = try TextCompletionRequest(body: request.body)
      let served = try servedModel(parsed.model)
      countTokens(
        try await admitted {
          try await TextCompletionRoutes(model: served, headers: corsHeaders()).create(parsed, writer: writer)
        })
    case .response(let id):
      let routes = ResponsesRoutes(model: model, store: responseStore, headers: corsHeaders())
      if method == "DELETE" {
        try await sendJSON(try routes.delete(id), to: writer)
      } else {
        _ = try QueryParameters(request.query, allowed: [])
        try await sendJSON(try routes.retrieve(id), to: writer)
      }
    case .responseInputItems(let id):
      let routes = ResponsesRoutes(model: model, store: responseStore, headers: corsHeaders())
      try await sendJSON(try routes.inputItems(id, query: request.query), to: writer)
    }
    return 200
  }

  /// `/health`: llama-server's `status`, and the models as Apple's `fm serve` lists them, each
  /// with whether it is available and why not: the served model (also `system`) and Private
  /// Cloud Compute, which no Linux process can reach.
  private var health: JSONValue {
    func entry(_ id: String, reason: String?) -> JSONValue {
      .object([
        member("id", .string(id)), member("available", .bool(reason == nil)),
        member("reason", reason.map(JSONValue.string) ?? .null),
      ])
    }
    return .object([
      member("status", .string("ok")),
      member(
        "models",
        .array([
          entry(model.id, reason: nil), entry("system", reason: nil),
          entry("pcc", reason: "PCC inference is not available in this context."),
        ])),
    ])
  }

  /// The served model a request's `model` names: its id, or `system` (Apple's name for the
  /// on-device model, as in Apple's `fm serve`).
  /// - Throws: `APIError` 404 naming the served model.
  func servedModel(_ name: String) throws -> ServedModel {
    guard name == model.id || name == "system" else {
      throw APIError(
        .notFound, "The model '\(name)' does not exist; this server serves '\(model.id)' (also named 'system')",
        param: "model", code: "model_not_found")
    }
    return model
  }

  /// Runs `body`, a generation, answering a refusal of the slot pool with 503 and
  /// `Retry-After`: every slot is busy and the queue is full. The pool refuses before the model
  /// writes anything, so no response has begun.
  private func admitted<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch LanguageModelError.rateLimited {
      throw APIError(
        .serviceUnavailable,
        "The server is busy: \(model.slots) requests are generating and \(model.queueLimit) are waiting; retry later",
        code: "queue_full", headers: [("Retry-After", String(configuration.retryAfterSeconds))])
    }
  }

  private func countTokens(_ summary: CompletionRunner.Summary) {
    metrics.addTokens(
      prompt: summary.promptTokens, cached: summary.cachedPromptTokens ?? 0, completion: summary.completionTokens)
  }

  private func chatCompletion(_ request: HTTPRequest, writer: ResponseWriter) async throws {
    let completion = try ChatCompletionRequest(body: request.body)
    let model = try servedModel(completion.model)
    let summary = try await admitted {
      let runner = CompletionRunner(model: model)
      let prepared = try await runner.prepare(completion.turn)
      let chunks = ChatCompletionChunks(model: model.id)
      if completion.stream {
        return try await stream(
          prepared, runner: runner, chunks: chunks, includeUsage: completion.includeUsage, writer: writer)
      }
      var content = ""
      var reasoning = ""
      var calls: [CompletionRunner.ToolCall] = []
      let summary = try await runner.run(prepared) { delta in
        switch delta {
        case .reasoning(let text): reasoning += text
        case .content(let text): content += text
        case .toolCall(let call): calls.append(call)
        }
      }
      try await sendJSON(
        chunks.completion(content: content, reasoning: reasoning, calls: calls, summary: summary), to: writer)
      return summary
    }
    countTokens(summary)
  }

  /// A streamed answer as server-sent events: the role chunk, content and tool-call chunks,
  /// the final chunk with the finish reason, the usage chunk when asked for, then `[DONE]`.
  ///
  /// The stream begins (status 200, headers, role chunk) with the model's first output, or
  /// when it ends without any: until then the request may still wait for a slot, or be
  /// refused, and an error is answered with its own status, as for a request without
  /// `stream`. An error after the stream began is sent as an `error` event, and the stream ends.
  private func stream(
    _ prepared: CompletionRunner.Prepared, runner: CompletionRunner, chunks: ChatCompletionChunks,
    includeUsage: Bool, writer: ResponseWriter
  ) async throws -> CompletionRunner.Summary {
    func event(_ json: String) async throws {
      try await writer.sendChunk(Array("data: \(json)\n\n".utf8))
    }
    func begin() async throws {
      guard !writer.hasStarted else { return }
      try await writer.startStream(
        status: .ok, headers: corsHeaders() + [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")])
      try await event(chunks.roleChunk)
    }
    var toolIndex = 0
    do {
      let summary = try await runner.run(prepared) { delta in
        try await begin()
        try await event(chunks.chunk(for: delta, index: toolIndex))
        if case .toolCall = delta { toolIndex += 1 }
      }
      try await begin()
      try await event(chunks.finalChunk(finishReason: summary.finishReason))
      if includeUsage { try await event(chunks.usageChunk(summary)) }
      try await event("[DONE]")
      try await writer.endStream()
      return summary
    } catch  where writer.hasStarted && !(error is CancellationError) && !(error is SocketConnection.Failure) {
      try await event(Self.apiError(for: error).body)
      try await writer.endStream()
      throw error
    }
  }

  private func sendJSON(_ text: String, to writer: ResponseWriter) async throws {
    try await writer.send(withCORS(.json(.ok, text)))
  }

  private func send(_ error: APIError, to writer: ResponseWriter) async {
    guard !writer.hasStarted else { return }
    try? await writer.send(withCORS(error.response))
  }

  private func corsHeaders(_ origin: String? = nil) -> [(name: String, value: String)] {
    guard let origin = origin ?? configuration.corsOrigin else { return [] }
    return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
  }

  private func withCORS(_ response: HTTPResponse) -> HTTPResponse {
    var response = response
    response.headers += corsHeaders()
    return response
  }

  /// An engine or framework error as the API reports it.
  static func apiError(for error: any Error) -> APIError {
    switch error {
    case let error as APIError: return error
    case is CancellationError: return APIError(.badRequest, "The request was cancelled", code: "cancelled")
    default: return EngineErrorMapping.apiError(for: error)
    }
  }
}
