import FMServer
import FMTestSupport
import Foundation
import Testing

/// Anthropic's `/v1/messages` on the small model through raw HTTP: the event stream's framing and
/// order, and errors in Anthropic's shape.
@Suite(.enabled(if: TestServer.modelIsPresent), .serialized)
struct MessagesTests {
  static func body(_ text: String, extra: String = "") -> String {
    #"{"model":"\#(TestServer.modelID)","max_tokens":8,"messages":[{"role":"user","content":"\#(text)"}]\#(extra)}"#
  }

  @Test func aStreamHasAnthropicsEventSequence() async throws {
    let server = try TestServer.start()
    let response = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/messages", Self.body("Count to five", extra: #","stream":true"#)), port: server.port)
    #expect(response.status == 200)
    let events = try TestServer.namedEvents(of: response)
    let types = events.map(\.type)
    let payloads = events.map(\.json)
    #expect(Array(types.prefix(3)) == ["message_start", "ping", "content_block_start"])
    #expect(Array(types.suffix(3)) == ["content_block_stop", "message_delta", "message_stop"])
    #expect(types.dropFirst(3).dropLast(3).allSatisfy { $0 == "content_block_delta" })
    let start = try #require(payloads[0]["message"] as? [String: Any])
    #expect(start["role"] as? String == "assistant" && (start["content"] as? [Any])?.isEmpty == true)
    let delta = try #require(payloads[payloads.count - 2])
    let used = try #require((delta["usage"] as? [String: Any])?["output_tokens"] as? Int)
    let reason = (delta["delta"] as? [String: Any])?["stop_reason"] as? String
    // Whether the budget was used up depends on the CPU; the reason says which at any length.
    #expect(reason == (used == 8 ? "max_tokens" : "end_turn"))
    await server.stop()
  }

  @Test func errorsHaveAnthropicsShape() async throws {
    let server = try TestServer.start(configuration: ServerConfiguration(apiKey: "k"))
    func send(_ request: String) async throws -> RawHTTPConnection.Response {
      try await RawHTTPConnection.exchange(request, port: server.port)
    }
    func errorType(_ response: RawHTTPConnection.Response) -> String? {
      guard response.json["type"] as? String == "error" else { return nil }
      return (response.json["error"] as? [String: Any])?["type"] as? String
    }
    let key = ["x-api-key: k"]
    let noMaximum = try await send(
      RawHTTPConnection.post(
        "/v1/messages", #"{"model":"system","messages":[{"role":"user","content":"Hi"}]}"#, headers: key))
    #expect(noMaximum.status == 400 && errorType(noMaximum) == "invalid_request_error")
    let unknown = try await send(
      RawHTTPConnection.post("/v1/messages", Self.body("Hi", extra: #","seed":1"#), headers: key))
    #expect(
      unknown.status == 400
        && ((unknown.json["error"] as? [String: Any])?["message"] as? String)?.contains("seed") == true)
    let image = try await send(
      RawHTTPConnection.post(
        "/v1/messages",
        #"{"model":"system","max_tokens":4,"messages":[{"role":"user","content":[{"type":"image","source":{}}]}]}"#,
        headers: key))
    #expect(image.status == 400 && errorType(image) == "invalid_request_error")
    let thinking = try await send(
      RawHTTPConnection.post(
        "/v1/messages",
        Self.body("Hi", extra: #","max_tokens":2000,"thinking":{"type":"enabled","budget_tokens":1024}"#),
        headers: key))
    // The small model does not think.
    #expect(thinking.status == 400 && errorType(thinking) == "invalid_request_error")
    #expect(
      errorType(try await send(RawHTTPConnection.post("/v1/messages", Self.body("Hi")))) == "authentication_error")
    let wrongKey = try await send(RawHTTPConnection.post("/v1/messages", Self.body("Hi"), headers: ["x-api-key: no"]))
    #expect(wrongKey.status == 401 && errorType(wrongKey) == "authentication_error")
    let method = try await send("GET /v1/messages HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\n\r\n")
    #expect(method.status == 405 && errorType(method) == "invalid_request_error")
    let model = try await send(
      RawHTTPConnection.post(
        "/v1/messages/count_tokens", #"{"model":"nope","messages":[{"role":"user","content":"Hi"}]}"#, headers: key))
    #expect(model.status == 404 && errorType(model) == "not_found_error")
    let bearer = try await send(
      RawHTTPConnection.post(
        "/v1/messages/count_tokens", #"{"model":"system","messages":[{"role":"user","content":"Hi"}]}"#,
        headers: ["Authorization: Bearer k"]))
    #expect(bearer.status == 200 && (bearer.json["input_tokens"] as? Int ?? 0) > 0)
    await server.stop()
  }
}
