import FMServer
import FMTestSupport
import Foundation
import FoundationModels
import Testing

/// `fm serve`'s server in the test process, on the small test model and a free port.
struct TestServer {
  static let modelID = "smollm2-135m"
  let http: HTTPServer
  var port: Int { http.port }
  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

  static var modelIsPresent: Bool { FileManager.default.fileExists(atPath: TestModels.smolLM2Path) }

  /// - Parameters:
  ///   - parallel: the slots (`--parallel`).
  ///   - queue: the requests that may wait for one (`--queue`).
  ///   - chatTemplate: a template in place of the model's own (`--chat-template-file`).
  ///   - cacheRAM: bytes keeping lent slots' caches (`--cache-ram`); nil for the default.
  ///   - guardrails: the checks requests run (`--guardrails`); nil for none.
  static func start(
    parallel: Int = 2, queue: Int = 16, configuration: ServerConfiguration = ServerConfiguration(),
    limits: HTTPLimits = HTTPLimits(), contextSize: Int = 2048, chatTemplate: String? = nil,
    responseStore: ResponseStore = ResponseStore(), cacheRAM: Int? = nil,
    speculation: SystemLanguageModel.Speculation = .lookup, draftModel: String? = nil,
    guardrails: SystemLanguageModel.Guardrails? = nil
  ) throws -> TestServer {
    // Batched, as `fm serve` runs it.
    let model = SystemLanguageModel(
      path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: contextSize, chatTemplate: chatTemplate,
      speculation: speculation, draftModel: draftModel)
    let served = ModelRoster(
      [ModelRoster.Entry(id: modelID, model: model, guardrails: guardrails)], slots: parallel, queue: queue,
      savedCacheBytes: cacheRAM)
    let http = try HTTPServer(
      host: "127.0.0.1", port: 0, limits: limits,
      responder: OpenAIServer(models: served, configuration: configuration, responseStore: responseStore))
    http.start()
    return TestServer(http: http)
  }

  func stop() async { await http.shutDown(gracePeriod: 5) }

  /// `GET /metrics` once `settled` holds of its text, or after 5 s: the server counts a request
  /// after it has answered it, so a client that asks at once may be ahead of the counters.
  func metrics(until settled: (String) -> Bool) async throws -> RawHTTPConnection.Response {
    let deadline = Date().addingTimeInterval(5)
    while true {
      let response = try await RawHTTPConnection.exchange("GET /metrics HTTP/1.1\r\n\r\n", port: port)
      if settled(response.text) || Date() > deadline { return response }
      try await Task.sleep(nanoseconds: 50_000_000)
    }
  }

  /// The value of the metric `name` in `/metrics` text (a line `name value`), if it is there.
  static func metric(_ name: String, in text: String) -> Double? {
    text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
  }

  /// A streamed response's chunks, the JSON of every `data:` event before `[DONE]`.
  static func chunks(of response: RawHTTPConnection.Response) -> [[String: Any]] {
    response.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.dropLast().map { event in
      (try? JSONSerialization.jsonObject(with: Data(event.dropFirst(6).utf8))) as? [String: Any] ?? [:]
    }
  }

  /// An OpenAI event stream's chunks (`chunks(of:)`), its framing checked: a 200 of
  /// `text/event-stream`, every event a `data:` line, `[DONE]` last.
  static func openAIChunks(
    of response: RawHTTPConnection.Response, sourceLocation: SourceLocation = #_sourceLocation
  ) -> [[String: Any]] {
    #expect(response.status == 200, sourceLocation: sourceLocation)
    #expect(response.headers["content-type"] == "text/event-stream", sourceLocation: sourceLocation)
    let events = response.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(events.allSatisfy { $0.hasPrefix("data: ") }, sourceLocation: sourceLocation)
    #expect(events.last == "data: [DONE]", sourceLocation: sourceLocation)
    return chunks(of: response)
  }

  /// A chat-completions body for one user message.
  static func chat(_ content: String, maxTokens: Int = 8, extra: String = "") -> String {
    #"{"model":"\#(modelID)","messages":[{"role":"user","content":"\#(content)"}],"max_tokens":\#(maxTokens)\#(extra)}"#
  }

  /// A stream of named server-sent events (Responses, Messages): each event's name and JSON,
  /// checked to be `event: NAME` then `data: JSON` whose `type` is the name.
  static func namedEvents(of response: RawHTTPConnection.Response) throws -> [(type: String, json: [String: Any])] {
    try response.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { event in
      let lines = event.split(separator: "\n", maxSplits: 1).map(String.init)
      guard lines.count == 2, lines[0].hasPrefix("event: "), lines[1].hasPrefix("data: "),
        let json = try JSONSerialization.jsonObject(with: Data(lines[1].dropFirst(6).utf8)) as? [String: Any],
        json["type"] as? String == String(lines[0].dropFirst(7))
      else { throw CocoaError(.coderReadCorrupt, userInfo: [NSLocalizedDescriptionKey: "not a named event: \(event)"]) }
      return (String(lines[0].dropFirst(7)), json)
    }
  }
}
