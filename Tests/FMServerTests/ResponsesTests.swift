import FMServer
import FMTestSupport
import Foundation
import Testing

/// `/v1/responses` on the small model through raw HTTP: the event stream's framing and order,
/// stored responses dropped past the store's bound, and `fm serve --store-dir` across a restart.
@Suite(.enabled(if: TestServer.modelIsPresent), .serialized)
struct ResponsesTests {
  static func request(_ server: TestServer, _ method: String, _ path: String, _ body: String? = nil) async throws
    -> RawHTTPConnection.Response
  {
    let text =
      if let body { RawHTTPConnection.post(path, body) } else { "\(method) \(path) HTTP/1.1\r\nHost: x\r\n\r\n" }
    return try await RawHTTPConnection.exchange(text, port: server.port)
  }

  static func create(_ input: String, extra: String = "", maximumTokens: Int = 8) -> String {
    #"{"model":"\#(TestServer.modelID)","input":"\#(input)","max_output_tokens":\#(maximumTokens)\#(extra)}"#
  }

  /// The engine's errors name the request's fields as the Responses API spells them: a forced
  /// call that the token limit cannot hold is about `max_output_tokens`, streamed or not.
  @Test(arguments: [false, true])
  func engineErrorsNameTheResponsesFields(streams: Bool) async throws {
    let server = try TestServer.start()
    let tool =
      #"{"type":"function","name":"weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}"#
    let forced = try await Self.request(
      server, "POST", "/v1/responses",
      Self.create(
        "Weather?", extra: #","tools":[\#(tool)],"tool_choice":"required"\#(streams ? #","stream":true"# : "")"#,
        maximumTokens: 1))
    #expect(forced.status == 400 && forced.error["param"] as? String == "max_output_tokens", "\(forced.json)")
    await server.stop()
  }

  @Test func aStreamNamesEachEventAndNumbersThemInOrder() async throws {
    let server = try TestServer.start()
    let response = try await Self.request(
      server, "POST", "/v1/responses", Self.create("Count to five", extra: #","stream":true"#))
    #expect(response.status == 200)
    #expect(response.headers["content-type"] == "text/event-stream")
    let events = try TestServer.namedEvents(of: response)
    let types = events.map(\.type)
    let payloads = events.map(\.json)
    #expect(payloads.map { $0["sequence_number"] as? Int } == Array(0..<payloads.count))
    #expect(
      Array(types.prefix(4)) == [
        "response.created", "response.in_progress", "response.output_item.added", "response.content_part.added",
      ])
    #expect(
      Array(types.suffix(4).dropLast()) == [
        "response.output_text.done", "response.content_part.done", "response.output_item.done",
      ])
    let final = try #require(payloads.last?["response"] as? [String: Any])
    let usage = try #require(final["usage"] as? [String: Any])
    let used = try #require(usage["output_tokens"] as? Int)
    // Whether the budget was used up depends on the CPU; the last event says which at any length.
    #expect(types.last == (used == 8 ? "response.incomplete" : "response.completed"))
    #expect(final["status"] as? String == (used == 8 ? "incomplete" : "completed"))
    let deltas = zip(types, payloads).filter { $0.0 == "response.output_text.delta" }.compactMap {
      $0.1["delta"] as? String
    }
    let output = try #require((final["output"] as? [[String: Any]])?.first)
    let text = ((output["content"] as? [[String: Any]])?.first?["text"] as? String) ?? "?"
    #expect(deltas.joined() == text)
    // Streamed or not, the response is stored.
    let stored = try await Self.request(server, "GET", "/v1/responses/\(final["id"] as? String ?? "")")
    #expect(stored.status == 200 && stored.json["status"] as? String == final["status"] as? String)
    await server.stop()
  }

  @Test func aResponseDroppedFromTheStoreIsOpenAIs404() async throws {
    let server = try TestServer.start(responseStore: ResponseStore(limits: .init(count: 1, bytes: 1 << 20)))
    let first = try await Self.request(server, "POST", "/v1/responses", Self.create("Hi"))
    let firstID = try #require(first.json["id"] as? String)
    _ = try await Self.request(server, "POST", "/v1/responses", Self.create("Hello"))
    let gone = try await Self.request(server, "GET", "/v1/responses/\(firstID)")
    #expect(gone.status == 404)
    #expect(
      gone.error["type"] as? String == "invalid_request_error"
        && (gone.error["message"] as? String)?.contains(firstID) == true)
    let continued = try await Self.request(
      server, "POST", "/v1/responses", Self.create("Again", extra: #","previous_response_id":"\#(firstID)""#))
    #expect(continued.status == 404 && continued.error["param"] as? String == "previous_response_id")
    let unstored = try await Self.request(server, "POST", "/v1/responses", Self.create("Hi", extra: #","store":false"#))
    let unstoredID = try #require(unstored.json["id"] as? String)
    #expect(try await Self.request(server, "GET", "/v1/responses/\(unstoredID)").status == 404)
    #expect(try await Self.request(server, "DELETE", "/v1/responses/\(unstoredID)").status == 404)
    #expect(try await Self.request(server, "PUT", "/v1/responses/\(unstoredID)").status == 405)
    #expect(try await Self.request(server, "GET", "/v1/responses/\(unstoredID)/output").status == 404)
    await server.stop()
  }

  /// `fm serve --store-dir`: a conversation stored before a restart continues after it, and a
  /// file in the directory that is no stored response does not stop the server.
  @Test func aStoredConversationContinuesAfterARestart() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let arguments = [TestModels.smolLM2Path, "--context", "2048", "--store-dir", directory.url.path]
    let before = try ServeProcess.start(arguments)
    let first = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/responses", Self.create("Name a colour.", extra: #","instructions":"Be terse.""#)),
      port: before.port)
    let id = try #require(first.json["id"] as? String)
    #expect(before.terminate() == 0)
    try Data("{\"response\":".utf8).write(to: directory.url.appendingPathComponent("resp_corrupt.json"))
    let after = try ServeProcess.start(arguments)
    let retrieved = try await RawHTTPConnection.exchange(
      "GET /v1/responses/\(id) HTTP/1.1\r\nHost: x\r\n\r\n", port: after.port)
    #expect(retrieved.status == 200 && retrieved.json["output"] as? [Any] != nil)
    let next = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post(
        "/v1/responses",
        Self.create("Another.", extra: #","instructions":"Be terse.","previous_response_id":"\#(id)""#)),
      port: after.port)
    #expect(next.status == 200, "\(next.text)")
    let usage = try #require(next.json["usage"] as? [String: Any])
    let firstUsage = try #require(first.json["usage"] as? [String: Any])
    // The new prompt holds the whole first turn: more tokens than its prompt and answer together.
    #expect((usage["input_tokens"] as? Int ?? 0) > (firstUsage["total_tokens"] as? Int ?? .max) - 1)
    #expect(after.terminate() == 0)
  }
}
