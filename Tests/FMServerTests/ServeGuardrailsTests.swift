import FMTestSupport
import Foundation
import FoundationModels
import Testing

@testable import FMServer

/// `fm serve --guardrails`: each API refuses a blocked input in its own error shape, ends a
/// blocked answer with its own reason, and checks nothing when the flag is off.
@Suite(.enabled(if: TestServer.modelIsPresent), .serialized)
struct ServeGuardrailsTests {
  static let phrase = "Granular mango serpent"

  /// One request per API with `text` as the user's input.
  static let inputs: [(path: String, body: @Sendable (String) -> String)] = [
    ("/v1/chat/completions", { TestServer.chat($0, maxTokens: 2) }),
    ("/v1/responses", { #"{"model":"\#(TestServer.modelID)","input":"\#($0)","max_output_tokens":2}"# }),
    (
      "/v1/messages",
      { #"{"model":"\#(TestServer.modelID)","max_tokens":2,"messages":[{"role":"user","content":"\#($0)"}]}"# }
    ),
    ("/v1/completions", { #"{"model":"\#(TestServer.modelID)","prompt":"\#($0)","max_tokens":2}"# }),
  ]

  static func errorCode(_ response: RawHTTPConnection.Response) -> String? {
    (response.json["error"] as? [String: Any])?["code"] as? String
  }

  @Test func aBlockedInputIsA400ContentFilterInEveryAPI() async throws {
    let server = try TestServer.start(guardrails: .default)
    for (path, body) in Self.inputs {
      let blocked = try await RawHTTPConnection.exchange(
        RawHTTPConnection.post(path, body("Say: \(Self.phrase)")), port: server.port)
      #expect(blocked.status == 400, "\(path)")
      let error = try #require(blocked.json["error"] as? [String: Any], "\(path)")
      #expect((error["message"] as? String)?.contains("test phrase") == true, "\(path): \(error)")
      if path == "/v1/messages" {
        #expect(blocked.json["type"] as? String == "error" && error["type"] as? String == "invalid_request_error")
      } else {
        #expect(Self.errorCode(blocked) == "content_filter", "\(path)")
      }
      let passed = try await RawHTTPConnection.exchange(RawHTTPConnection.post(path, body("Hello")), port: server.port)
      #expect(passed.status == 200, "\(path): the server goes on after a refusal")
    }
    await server.stop()
  }

  /// The client writes the whole conversation: a blocked message earlier in it is found too.
  @Test func anEarlierMessageOfTheConversationIsChecked() async throws {
    let server = try TestServer.start(guardrails: .default)
    let body =
      #"{"model":"\#(TestServer.modelID)","max_tokens":2,"messages":[{"role":"user","content":"Say: \#(Self.phrase)"},{"role":"assistant","content":"Sure."},{"role":"user","content":"Go on."}]}"#
    let response = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/chat/completions", body), port: server.port)
    #expect(response.status == 400 && Self.errorCode(response) == "content_filter")
    await server.stop()
  }

  @Test func withoutTheFlagNothingIsChecked() async throws {
    let server = try TestServer.start()
    for (path, body) in Self.inputs {
      let response = try await RawHTTPConnection.exchange(
        RawHTTPConnection.post(path, body("Say: \(Self.phrase)")), port: server.port)
      #expect(response.status == 200, "\(path)")
    }
    await server.stop()
  }

  /// Tokens for the forced answer `{"a":"Granular mango serpent"}`: room for it at one
  /// character a token, so the phrase is written, and blocked, on any CPU.
  static let forcedBudget = 64

  /// A schema whose only value is the test phrase: the answer the model must write.
  static let forcedPhrase =
    #","response_format":{"type":"json_schema","json_schema":{"name":"t","strict":true,"schema":{"type":"object","properties":{"a":{"type":"string","enum":["\#(phrase)"]}},"required":["a"],"additionalProperties":false}}}"#

  @Test(arguments: [false, true])
  func aBlockedAnswerEndsWithContentFilter(streams: Bool) async throws {
    let server = try TestServer.start(guardrails: .default)
    let body = TestServer.chat(
      "Fill it in.", maxTokens: Self.forcedBudget, extra: Self.forcedPhrase + (streams ? #","stream":true"# : ""))
    let response = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/chat/completions", body), port: server.port)
    let content: String
    let reason: String?
    if streams {
      let chunks = TestServer.openAIChunks(of: response)
      let choices = chunks.compactMap { ($0["choices"] as? [[String: Any]])?.first }
      content = choices.compactMap { ($0["delta"] as? [String: Any])?["content"] as? String }.joined()
      reason = choices.compactMap { $0["finish_reason"] as? String }.last
    } else {
      #expect(response.status == 200)
      let choice = try #require((response.json["choices"] as? [[String: Any]])?.first)
      content = (choice["message"] as? [String: Any])?["content"] as? String ?? ""
      reason = choice["finish_reason"] as? String
    }
    #expect(reason == "content_filter")
    #expect(!content.contains(Self.phrase), "the text that was blocked is not sent: \(content)")
    if !streams { #expect(content.isEmpty, "a blocked answer sent whole sends nothing: \(content)") }
    await server.stop()
  }

  @Test func aBlockedAnswerEndsTheResponseAndTheMessageTheirWay() async throws {
    let server = try TestServer.start(guardrails: .default)
    let format =
      #","text":{"format":{"type":"json_schema","name":"t","strict":true,"schema":{"type":"object","properties":{"a":{"type":"string","enum":["\#(Self.phrase)"]}},"required":["a"],"additionalProperties":false}}}"#
    let response = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post(
        "/v1/responses",
        #"{"model":"\#(TestServer.modelID)","input":"Fill it in.","max_output_tokens":\#(Self.forcedBudget)\#(format)}"#
      ),
      port: server.port)
    #expect(response.json["status"] as? String == "incomplete")
    #expect((response.json["incomplete_details"] as? [String: Any])?["reason"] as? String == "content_filter")
    await server.stop()
  }

  @Test func permissiveChecksOnlyRequestsUnderASchema() async throws {
    let server = try TestServer.start(guardrails: .permissiveContentTransformations)
    let plain = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/chat/completions", TestServer.chat("Say: \(Self.phrase)")), port: server.port)
    #expect(plain.status == 200)
    let schema =
      #","response_format":{"type":"json_schema","json_schema":{"name":"t","schema":{"type":"object","properties":{"a":{"type":"string"}}}}}"#
    let guided = try await RawHTTPConnection.exchange(
      RawHTTPConnection.post("/v1/chat/completions", TestServer.chat("Say: \(Self.phrase)", extra: schema)),
      port: server.port)
    #expect(guided.status == 400 && Self.errorCode(guided) == "content_filter")
    await server.stop()
  }
}

/// How each API names an answer the guardrails ended.
@Suite struct ContentFilterReasonTests {
  @Test func eachAPINamesABlockedAnswerItsWay() {
    var summary = CompletionRunner.Summary(finishReason: .endOfTurn, promptTokens: 3, completionTokens: 2)
    #expect(summary.openAIFinishReason == "stop")
    #expect(MessagesRoutes.stopReason(summary) == "end_turn")
    summary.contentFiltered = true
    #expect(summary.openAIFinishReason == "content_filter")
    #expect(MessagesRoutes.stopReason(summary) == "refusal")
  }
}
