import FMTestSupport
import Foundation
import GuidedDecoding
import JSON
import RemoteModel

/// One streamed OpenAI chat completion as a client sees it: when the first content arrived,
/// how long the whole stream took, the text and the tokens generated (the usage chunk's count,
/// else one per content chunk, as both servers send a token per chunk).
struct StreamedCompletion: Sendable {
  var timeToFirstToken: Double?
  var seconds = 0.0
  var content = ""
  var completionTokens = 0
  var error: String?

  /// Posts `body` (with `stream` and usage asked for) to `server`'s `/v1/chat/completions` and
  /// reads the stream to `[DONE]`.
  ///
  /// The client is a blocking socket on a thread of its own, not `URLSession`: on Linux the
  /// latter's streaming (libcurl under a delegate queue) took a large share of a 2-core machine
  /// for 8 streams, which the servers measured then lacked.
  static func request(_ body: [JSONValue.Member], to server: URL) async -> StreamedCompletion {
    let streaming: [JSONValue.Member] = [
      .init(key: "stream", value: .bool(true)),
      .init(key: "stream_options", value: .object([.init(key: "include_usage", value: .bool(true))])),
    ]
    let text = RawHTTPConnection.post("/v1/chat/completions", JSONValue.object(body + streaming).compactText)
    let port = server.port ?? 80
    do {
      return try await onThread { try read(text, port: port) }
    } catch {
      return StreamedCompletion(error: "\(error)")
    }
  }

  private static func read(_ request: String, port: Int) throws -> StreamedCompletion {
    var outcome = StreamedCompletion()
    let start = DispatchTime.now()
    var parser = ServerSentEventParser()
    var chunks = 0
    var usage: Int?
    func take(_ events: [String]) throws {
      for event in events where event != "[DONE]" {
        let chunk = try JSONValue(parsing: event)
        if let error = chunk["error"] { outcome.error = error.compactText }
        if let tokens = chunk["usage"]?["completion_tokens"]?.intValue { usage = tokens }
        let delta = chunk["choices"]?.arrayValue?.first?["delta"]?["content"]?.stringValue ?? ""
        guard !delta.isEmpty else { continue }
        if outcome.timeToFirstToken == nil { outcome.timeToFirstToken = elapsed(since: start) }
        outcome.content += delta
        chunks += 1
      }
    }
    do {
      let connection = try RawHTTPConnection(port: port, timeout: 600)
      try connection.send(request)
      let head = try connection.readHead()
      if head.status != 200 { outcome.error = "HTTP \(head.status)" }
      if head.headers["transfer-encoding"] == "chunked" {
        while case let chunk = try connection.readChunk(), !chunk.isEmpty { try take(parser.feed(chunk)) }
      } else {
        while case let bytes = try connection.readAvailable(), !bytes.isEmpty { try take(parser.feed(bytes)) }
      }
      try take(parser.finish())
    } catch {
      outcome.error = "\(error)"
    }
    outcome.seconds = elapsed(since: start)
    outcome.completionTokens = usage ?? chunks
    return outcome
  }
}

extension StreamedCompletion {
  /// A JSON Schema response format: `json_schema` named `name`, with `strict` when given.
  struct SchemaFormat {
    var name: String
    var schema: JSONValue
    var strict: Bool?
  }

  /// A greedy chat completion of one user message, `prompt`, with `format` as its
  /// `response_format` when given and `extra` members after the others.
  static func greedyBody(
    model: String, prompt: String, maximumTokens: Int, format: SchemaFormat? = nil, extra: [JSONValue.Member] = []
  ) -> [JSONValue.Member] {
    var body: [JSONValue.Member] =
      [
        .init(key: "model", value: .string(model)),
        .init(
          key: "messages",
          value: .array([
            .object([.init(key: "role", value: .string("user")), .init(key: "content", value: .string(prompt))])
          ])),
        .init(key: "max_tokens", value: .number(ExactDecimal(maximumTokens))),
        .init(key: "temperature", value: .number(.zero)),
      ] + extra
    if let format {
      var schema: [JSONValue.Member] = [.init(key: "name", value: .string(format.name))]
      if let strict = format.strict { schema.append(.init(key: "strict", value: .bool(strict))) }
      schema.append(.init(key: "schema", value: format.schema))
      body.append(
        .init(
          key: "response_format",
          value: .object([
            .init(key: "type", value: .string("json_schema")), .init(key: "json_schema", value: .object(schema)),
          ])))
    }
    return body
  }
}
