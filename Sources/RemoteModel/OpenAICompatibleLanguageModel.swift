import Foundation
import FoundationModels

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A model served over the OpenAI chat-completions protocol — vLLM, llama.cpp's `llama-server`,
/// Ollama, or any other compatible server — plugged into `LanguageModelSession` like any model:
///
///     let model = OpenAICompatibleLanguageModel(
///       baseURL: URL(string: "http://gpu-node:8000/v1")!, model: "Qwen/Qwen2.5-7B-Instruct")
///     let session = LanguageModelSession(model: model, instructions: "Be brief.")
///
/// Streaming, guided generation (`response_format` with the schema, strict; the output is
/// checked against the schema before it is returned), tools (`tools`, `tool_choice` from
/// `toolCallingMode`), reasoning (`ContextOptions.reasoningLevel` as `reasoning_effort`, the
/// model's `reasoning_content` as a reasoning entry) and usage all go through the protocol.
/// Named so that it does not clash with `ChatCompletionsLanguageModel` of Apple's
/// foundation-models-utilities when an app imports both.
public struct OpenAICompatibleLanguageModel: LanguageModel {
  public typealias Executor = OpenAICompatibleExecutor

  /// The server's address, with or without the `/v1` path.
  public var baseURL: URL
  /// The model the server should use (`model` in the request).
  public var model: String
  /// Sent as `Authorization: Bearer`; nil for none.
  public var apiKey: String?
  /// Sent with every request.
  public var headers: [String: String]
  /// The longest the server may stay silent: before the first byte and between chunks.
  public var timeout: Duration
  /// How often a request that failed before any output (no connection, HTTP 429 or 503) is sent
  /// again, with jittered exponential backoff or the server's `Retry-After`.
  public var maximumRetries: Int

  /// - Parameters:
  ///   - apiKey: the key; nil reads `FM_API_KEY`, then `OPENAI_API_KEY`, from the environment.
  public init(
    baseURL: URL, model: String, apiKey: String? = nil, headers: [String: String] = [:],
    timeout: Duration = .seconds(120), maximumRetries: Int = 2
  ) {
    self.baseURL = baseURL
    self.model = model
    let environment = ProcessInfo.processInfo.environment
    self.apiKey = apiKey ?? environment["FM_API_KEY"] ?? environment["OPENAI_API_KEY"]
    self.headers = headers
    self.timeout = timeout
    self.maximumRetries = maximumRetries
  }

  /// Guided generation, tool calling and reasoning: what the protocol carries. Whether the
  /// server's model can do them well is the server's matter.
  public var capabilities: LanguageModelCapabilities {
    LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling, .reasoning])
  }

  public var executorConfiguration: OpenAICompatibleExecutor.Configuration {
    OpenAICompatibleExecutor.Configuration(baseURL: baseURL)
  }

  /// The URL of `path` (such as `chat/completions`) on the server, under `/v1`.
  func endpoint(_ path: String) -> URL {
    let versioned = baseURL.pathComponents.contains("v1") ? baseURL : baseURL.appendingPathComponent("v1")
    return versioned.appendingPathComponent(path)
  }

  /// A request to `url` with the model's headers and key.
  func urlRequest(_ url: URL, method: String = "GET", body: Data? = nil) -> URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
    if let apiKey, !apiKey.isEmpty { request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return request
  }

  var timeoutSeconds: TimeInterval {
    Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
  }
}

/// Sends each request to the server and streams the answer into the channel.
public struct OpenAICompatibleExecutor: LanguageModelExecutor {
  public typealias Model = OpenAICompatibleLanguageModel

  /// The server; one executor per session, connections are per request.
  public struct Configuration: Hashable, Sendable {
    let baseURL: URL
  }

  public init(configuration: Configuration) throws {}

  public nonisolated(nonsending) func respond(
    to request: LanguageModelExecutorGenerationRequest, model: OpenAICompatibleLanguageModel,
    streamingInto channel: LanguageModelExecutorGenerationChannel
  ) async throws {
    let wire = ChatCompletionsRequest(model: model.model, request: request)
    let body = try wire.body()
    let urlRequest = model.urlRequest(model.endpoint("chat/completions"), method: "POST", body: body)
    let policy = RetryPolicy(maximumRetries: model.maximumRetries)
    var attempt = 0
    while true {
      attempt += 1
      var events = ChatCompletionsEvents()
      do {
        try await stream(urlRequest, timeout: model.timeoutSeconds, into: channel, events: &events)
        try events.finish()
        if wire.requiresToolCall && !events.hasToolCalls {
          // llama-server does this for a model whose chat template has no tools (it answers in
          // text): a turn that must call a tool is not passed off as answered.
          throw LanguageModelError.unsupportedCapability(
            .init(
              capability: .toolCalling,
              debugDescription:
                "The server answered without calling a tool although the request required one (toolCallingMode .required); its model or chat template may not support tool calls."
            ))
        }
        if let schema = request.schema {
          if events.finishReason == "length" {
            throw GeneratedContent.ParsingError(
              rawContent: events.text,
              debugDescription: "The response reached maximumResponseTokens before the output was complete.")
          }
          try SchemaCheck.validate(events.text, against: schema)
        }
        return
      } catch let failure as RetryableFailure where !events.hasOutput {
        guard let delay = policy.delay(beforeRetry: attempt, retryAfter: failure.retryAfter) else {
          throw failure.error
        }
        try await Task.sleep(for: .seconds(delay))
      } catch let failure as RetryableFailure {
        throw failure.error
      }
    }
  }

  /// One attempt: the request's response streamed into `channel`.
  /// - Throws: `RetryableFailure` for what a retry may cure; otherwise the error to report.
  private func stream(
    _ request: URLRequest, timeout: TimeInterval, into channel: LanguageModelExecutorGenerationChannel,
    events: inout ChatCompletionsEvents
  ) async throws {
    var parser = ServerSentEventParser()
    var status = 0
    var retryAfter: TimeInterval?
    var errorBody = Data()
    do {
      for try await part in HTTPStream.parts(of: request, timeout: timeout) {
        switch part {
        case .head(let response):
          status = response.statusCode
          retryAfter = RetryPolicy.retryAfter(response)
        case .body(let data) where status != 200:
          errorBody.append(data)
        case .body(let data):
          for payload in parser.feed(data) where payload != "[DONE]" {
            try await events.send(payload, into: channel)
          }
        }
      }
    } catch is CancellationError {
      throw CancellationError()
    } catch let error as URLError where error.code == .cancelled {
      throw CancellationError()
    } catch let error as URLError {
      let failure = RemoteModelError.connection(error.localizedDescription + " (\(request.url?.absoluteString ?? ""))")
      if RetryPolicy.isRetryable(error) { throw RetryableFailure(error: failure, retryAfter: nil) }
      throw failure
    }
    try Task.checkCancellation()
    guard status == 200 else {
      let error = RemoteModelError.from(status: status, body: errorBody, retryAfter: retryAfter)
      if RetryPolicy.isRetryable(status: status) { throw RetryableFailure(error: error, retryAfter: retryAfter) }
      throw error
    }
    for payload in parser.finish() where payload != "[DONE]" { try await events.send(payload, into: channel) }
  }
}

/// A failure that a retry may cure, with the error to report if none is left.
struct RetryableFailure: Error {
  let error: any Error
  let retryAfter: TimeInterval?
}
