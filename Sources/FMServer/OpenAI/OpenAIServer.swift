import Foundation
import FoundationModels
import JSON

/// The routes of `fm serve`: OpenAI's `/v1/models`, `/v1/chat/completions`, Responses API
/// (`/v1/responses`) and legacy `/v1/completions`, llama-server's `/tokenize`, `/detokenize`
/// and `/apply-template`, `/health` and `/metrics`; with the API key check, CORS when
/// configured, and OpenAI-shaped errors for everything refused.
public final class OpenAIServer: HTTPResponder {
  let models: ModelRoster
  let configuration: ServerConfiguration
  let metrics = ServerMetrics()
  let responseStore: ResponseStore

  /// - Parameter responseStore: where `/v1/responses` keeps responses (in memory, with the
  ///   default limits, when not given).
  public init(models: ModelRoster, configuration: ServerConfiguration, responseStore: ResponseStore = ResponseStore()) {
    self.models = models
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
    } catch {
      let apiError = Self.apiError(for: error, fields: RequestFields(path: request.path))
      status = apiError.status.code
      await send(apiError, to: writer, anthropic: Endpoint.isAnthropic(request.path))
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
            ("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"),
            ("Access-Control-Allow-Headers", "Authorization, Content-Type, x-api-key, anthropic-version"),
            ("Access-Control-Max-Age", "600"),
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
    // The key as OpenAI's clients send it, or as Anthropic's (`x-api-key`), on every path.
    if endpoint != .health, let key = configuration.apiKey,
      request.header("Authorization") != "Bearer \(key)", request.header("x-api-key") != key
    {
      throw APIError(
        .unauthorized,
        request.header("Authorization") == nil && request.header("x-api-key") == nil
          ? "Missing API key: send it as 'Authorization: Bearer KEY' or 'x-api-key: KEY'"
          : "Incorrect API key provided",
        type: "authentication_error", code: "invalid_api_key")
    }
    switch endpoint {
    case .health:
      try await sendJSON(health.compactText, to: writer)
    case .models:
      let entries = models.entries.map { entry in
        JSONValue.object([
          member("id", .string(entry.id)), member("object", .string("model")), member("created", .number(.zero)),
          member("owned_by", .string("fm")),
          // vLLM's field for the context a request may fill, which clients read (our remote
          // model's `contextSize()` among them).
          member("max_model_len", .integer(entry.model.contextSize)),
        ])
      }
      try await sendJSON(
        JSONValue.object([member("object", .string("list")), member("data", .array(entries))]).compactText, to: writer)
    case .metrics:
      try await writer.send(
        withCORS(
          HTTPResponse(
            status: .ok, headers: [("Content-Type", "text/plain; version=0.0.4")],
            body: Array(metrics.text(models: models).utf8))))
    case .tokenizer:
      let answer = try await models.withModel(models.defaultID) { model in
        try await TokenizerRoutes(model: model).answer(request.path, body: request.body)
      }
      try await sendJSON(answer, to: writer)
    case .chatCompletions:
      try await chatCompletion(request, writer: writer)
    case .responses:
      let parsed = try ResponsesRequest(body: request.body)
      let summary = try await generate(on: parsed.model) { model in
        try await ResponsesRoutes(store: responseStore, headers: corsHeaders()).create(
          parsed, on: model, writer: writer)
      }
      countTokens(summary)
    case .textCompletions:
      let parsed = try TextCompletionRequest(body: request.body)
      let summary = try await generate(on: parsed.model) { model in
        try await TextCompletionRoutes(model: model, headers: corsHeaders()).create(parsed, writer: writer)
      }
      countTokens(summary)
    case .response(let id):
      let routes = ResponsesRoutes(store: responseStore, headers: corsHeaders())
      if method == "DELETE" {
        try await sendJSON(try routes.delete(id), to: writer)
      } else {
        _ = try QueryParameters(request.query, allowed: [])
        try await sendJSON(try routes.retrieve(id), to: writer)
      }
    case .messages:
      let parsed = try MessagesRequest(body: request.body)
      let summary = try await generate(on: parsed.model) { model in
        try await MessagesRoutes(model: model, headers: corsHeaders()).create(parsed, writer: writer)
      }
      countTokens(summary)
    case .countTokens:
      let parsed = try MessagesRequest(body: request.body, counting: true)
      let answer = try await models.withModel(parsed.model) { model in
        try await MessagesRoutes(model: model, headers: corsHeaders()).countTokens(parsed)
      }
      try await sendJSON(answer, to: writer)
    case .responseInputItems(let id):
      let routes = ResponsesRoutes(store: responseStore, headers: corsHeaders())
      try await sendJSON(try routes.inputItems(id, query: request.query), to: writer)
    }
    return 200
  }

  /// `/health`: llama-server's `status`, and the models as Apple's `fm serve` lists them, each
  /// with whether it is available and why not: the served models (the first also `system`) and
  /// Private Cloud Compute, which no Linux process can reach; with whether each is in memory.
  private var health: JSONValue {
    let loaded = models.loaded
    func entry(_ id: String, reason: String?, loaded: Bool) -> JSONValue {
      .object([
        member("id", .string(id)), member("available", .bool(reason == nil)),
        member("reason", reason.map(JSONValue.string) ?? .null), member("loaded", .bool(loaded)),
      ])
    }
    let served = models.entries.map { entry($0.id, reason: nil, loaded: loaded[$0.id] != nil) }
    return .object([
      member("status", .string("ok")),
      member(
        "models",
        .array(
          served + [
            entry("system", reason: nil, loaded: loaded[models.defaultID] != nil),
            entry("pcc", reason: "PCC inference is not available in this context.", loaded: false),
          ])),
    ])
  }

  /// Runs `body`, a generation on the model `name` names, answering a refusal of its slot pool
  /// with 503 and `Retry-After`: every slot is busy and the queue is full. The pool refuses
  /// before the model writes anything, so no response has begun.
  private func generate<T>(on name: String, _ body: (ServedModel) async throws -> T) async throws -> T {
    try await models.withModel(name) { model in
      do {
        return try await body(model)
      } catch LanguageModelError.rateLimited {
        throw APIError(
          .serviceUnavailable,
          "The server is busy: \(model.slots) requests are generating and \(model.queueLimit) are waiting; retry later",
          code: "queue_full", headers: [("Retry-After", String(configuration.retryAfterSeconds))])
      }
    }
  }

  private func countTokens(_ summary: CompletionRunner.Summary) {
    metrics.addTokens(
      prompt: summary.promptTokens, cached: summary.cachedPromptTokens ?? 0, completion: summary.completionTokens)
  }

  private func chatCompletion(_ request: HTTPRequest, writer: ResponseWriter) async throws {
    let completion = try ChatCompletionRequest(body: request.body)
    let summary = try await generate(on: completion.model) { model in
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
      let summary = try await runner.run(prepared, whole: true) { delta in
        switch delta {
        case .reasoning(let text): reasoning += text
        case .content(let text): content += text
        case .toolCall(let call): calls.append(call)
        case .toolCallStarted: break
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
    let stream = EventStream(writer: writer, headers: corsHeaders())
    func event(_ json: String) async throws { try await stream.send(data: json) }
    func begin() async throws {
      guard !stream.hasStarted else { return }
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
      try await event(chunks.finalChunk(finishReason: summary.openAIFinishReason))
      if includeUsage { try await event(chunks.usageChunk(summary)) }
      try await event("[DONE]")
      try await stream.end()
      return summary
    } catch  where stream.hasStarted && EventStream.reports(error) {
      try await event(Self.apiError(for: error).body)
      try await stream.end()
      throw error
    }
  }

  private func sendJSON(_ text: String, to writer: ResponseWriter) async throws {
    try await writer.send(withCORS(.json(.ok, text)))
  }

  private func send(_ error: APIError, to writer: ResponseWriter, anthropic: Bool) async {
    guard !writer.hasStarted else { return }
    try? await writer.send(withCORS(error.response(anthropic: anthropic)))
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
  static func apiError(for error: any Error, fields: RequestFields = .chatCompletions) -> APIError {
    switch error {
    case let error as APIError: return error
    case is CancellationError: return APIError(.badRequest, "The request was cancelled", code: "cancelled")
    default: return EngineErrorMapping.apiError(for: error, fields: fields)
    }
  }
}
