import FMTestSupport
import Foundation
import FoundationModels
import JSON
import RemoteModel
import Testing

/// What a real server cannot be made to produce on demand (failures, reasoning), from a canned one.
@Suite struct RemoteModelFailureTests {
  func session(_ server: CannedHTTPServer, retries: Int = 1) -> LanguageModelSession {
    LanguageModelSession(
      model: OpenAICompatibleLanguageModel(baseURL: server.baseURL, model: "m", maximumRetries: retries))
  }

  @Test func anHTTP500IsReportedWithTheServersMessageAndNotRetried() async throws {
    let server = try CannedHTTPServer(responses: [.init(status: 500, body: #"{"error":{"message":"GPU on fire"}}"#)])
    defer { server.stop() }
    let session = session(server)
    await #expect {
      try await session.respond(to: "Hi")
    } throws: { error in
      guard case .http(500, let message)? = error as? RemoteModelError else { return false }
      return message == "GPU on fire"
    }
    #expect(server.requests.count == 1)
    #expect(session.transcript.isEmpty)
  }

  @Test func a429IsRetriedAfterTheServersRetryAfter() async throws {
    let server = try CannedHTTPServer(responses: [
      .init(status: 429, headers: ["Retry-After": "0"], body: #"{"error":{"message":"busy"}}"#),
      .streamedCompletion("Hello there."),
    ])
    defer { server.stop() }
    #expect(try await session(server).respond(to: "Hi").content == "Hello there.")
    #expect(server.requests.count == 2)
  }

  @Test func aServerThatStaysUnavailableIsAnErrorAfterTheRetries() async throws {
    let server = try CannedHTTPServer(responses: [.init(status: 503, headers: ["Retry-After": "0"], body: "down")])
    defer { server.stop() }
    await #expect(throws: RemoteModelError.self) { try await session(server, retries: 2).respond(to: "Hi") }
    #expect(server.requests.count == 3)
  }

  @Test func reasoningContentBecomesAReasoningEntryAndUsageCountsIt() async throws {
    let chunks = [
      #"{"choices":[{"index":0,"delta":{"reasoning_content":"The user greets; "}}]}"#,
      #"{"choices":[{"index":0,"delta":{"reasoning_content":"greet back."}}]}"#,
      #"{"choices":[{"index":0,"delta":{"content":"Hello!"}}]}"#,
      #"{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":5}}}"#,
    ]
    let body = chunks.map { "data: \($0)\n\n" }.joined() + "data: [DONE]\n\n"
    let server = try CannedHTTPServer(responses: [.init(headers: ["Content-Type": "text/event-stream"], body: body)])
    defer { server.stop() }
    let session = session(server)
    let response = try await session.respond(to: "Hi")
    #expect(response.content == "Hello!")
    let reasoning = session.transcript.compactMap { entry -> String? in
      guard case .reasoning(let reasoning) = entry else { return nil }
      return reasoning.segments.map(\.description).joined()
    }
    #expect(reasoning == ["The user greets; greet back."])
    #expect(response.usage.input.totalTokenCount == 9 && response.usage.input.cachedTokenCount == 4)
    #expect(response.usage.output.totalTokenCount == 7 && response.usage.output.reasoningTokenCount == 5)
  }

  /// A reasoning level, the request's own or a profile's, is sent as OpenAI's `reasoning_effort`;
  /// a request without one sends none.
  @Test func theReasoningLevelIsSentAsReasoningEffort() async throws {
    let server = try CannedHTTPServer(responses: [.streamedCompletion("Hello!")])
    defer { server.stop() }
    let session = session(server)
    _ = try await session.respond(to: "Hi", contextOptions: ContextOptions(reasoningLevel: .deep))
    _ = try await session.respond(to: "Hi again")
    let model = OpenAICompatibleLanguageModel(baseURL: server.baseURL, model: "m", maximumRetries: 1)
    let profiled = LanguageModelSession(
      profile: LanguageModelSession.Profile { Instructions("Be brief.") }.model(model).reasoningLevel(.light))
    _ = try await profiled.respond(to: "Hi")
    let sent = try server.requests.map { try JSONValue(parsing: $0)["reasoning_effort"] }
    #expect(sent == [.string("high"), nil, .string("low")])
  }

  /// llama-server answers in text where the model's template has no tools, whatever
  /// `tool_choice` says: a turn that must call a tool is then an error, not a text answer.
  @Test func aServerThatIgnoresARequiredToolCallIsAnError() async throws {
    let server = try CannedHTTPServer(responses: [.streamedCompletion("High tide is at noon.")])
    defer { server.stop() }
    let session = LanguageModelSession(
      model: OpenAICompatibleLanguageModel(baseURL: server.baseURL, model: "m", maximumRetries: 1),
      tools: [CityLookup()])
    await #expect {
      try await session.respond(to: "Tides in Brest?", options: GenerationOptions(toolCallingMode: .required))
    } throws: { error in
      guard case .unsupportedCapability(let unsupported)? = error as? LanguageModelError else { return false }
      return unsupported.capability == .toolCalling
    }
    #expect(server.requests.first?.contains(#""tool_choice":"required""#) == true)
    #expect(session.transcript.count == 1, "only the (empty) instructions entry tools give the session")
  }

  @Test func aServerThatIgnoresTheSchemaNeverPassesItsOutputOff() async throws {
    let wrongShape = try CannedHTTPServer(responses: [.streamedCompletion(#"{"Dante":{"Lilith":1880}}"#)])
    defer { wrongShape.stop() }
    await #expect {
      try await session(wrongShape).respond(to: "Pick", generating: Verdict.self)
    } throws: { error in
      guard case .unsupportedGenerationGuide? = error as? LanguageModelError else { return false }
      return true
    }
    #expect(wrongShape.requests.first?.contains(#""response_format""#) == true)
    let prose = try CannedHTTPServer(responses: [.streamedCompletion("Sure! The answer is yes.")])
    defer { prose.stop() }
    await #expect(throws: (any Error).self) { try await session(prose).respond(to: "Pick", generating: Verdict.self) }
  }
}
