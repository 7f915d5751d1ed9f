import Foundation
import FoundationModels
import Synchronization
import Testing

/// The session's tool loop with a provider: the model's calls are run (in parallel), their
/// outputs appended in call order, and the model asked again.
@Suite struct ProviderToolLoopTests {
  @Test func parallelCallsRunAndTheModelAnswersWithTheirOutputs() async throws {
    let calls = Round([
      .toolCalls(action: .toolCall(id: "c1", name: "weather", action: .appendArguments(#"{"city":"#, tokenCount: 2))),
      .toolCalls(
        action: .toolCall(id: "c2", name: "weather", action: .appendArguments(#"{"city":"Rome"}"#, tokenCount: 4))),
      .toolCalls(action: .toolCall(id: "c1", name: "weather", action: .appendArguments(#""Oslo"}"#, tokenCount: 2))),
      .toolCalls(action: .toolCall(id: "c1", name: "weather", action: .updateMetadata(["cacheHit": true]))),
      .toolCalls(
        action: .updateUsage(
          input: .init(totalTokenCount: 50, cachedTokenCount: 0),
          output: .init(totalTokenCount: 8, reasoningTokenCount: 0))),
    ])
    let answer = Round([
      .response(action: .appendText("Oslo is cold, Rome is warm.", tokenCount: 7)),
      .response(action: usage(input: 80, cached: 50, output: 7)),
    ])
    let model = ScriptedProvider([calls, answer])
    let weather = Weather(delay: .milliseconds(50))
    let session = LanguageModelSession(model: model, tools: [weather], instructions: "Use tools.")
    let response = try await session.respond(to: "Weather in Oslo and Rome?")

    #expect(response.content == "Oslo is cold, Rome is warm.")
    let kinds = response.transcriptEntries.map(\.kindName)
    #expect(kinds == ["prompt", "toolCalls", "toolOutput", "toolOutput", "response"])
    guard case .toolCalls(let made) = response.transcriptEntries.dropFirst().first else { return }
    #expect(made.map(\.id) == ["c1", "c2"])
    #expect(try made.first?.arguments.value(String.self, forProperty: "city") == "Oslo")
    #expect(made.first?.metadata["cacheHit"] as? Bool == true)
    let outputs = response.transcriptEntries.compactMap { entry -> String? in
      if case .toolOutput(let output) = entry { return "\(output.id) \(output.segments.map(\.description).joined())" }
      return nil
    }
    #expect(outputs == ["c1 cold in Oslo", "c2 warm in Rome"], "in call order")
    #expect(weather.peakConcurrency == 2, "the two calls ran at the same time")
    #expect(response.usage.input.totalTokenCount == 130, "both rounds count")
    #expect(response.usage.output.totalTokenCount == 15)

    // The second invocation saw the calls and their outputs.
    let second = try #require(model.script.requests.last)
    #expect(second.transcript.map(\.kindName).suffix(3) == ["toolCalls", "toolOutput", "toolOutput"])
    #expect(session.transcript.count == 1 + kinds.count)
  }

  /// Usage is not an entry: a provider that streams its calls and then reports the usage on
  /// a response event — what an OpenAI-compatible server's last chunk (usage after
  /// `tool_calls`) makes a chat-completions provider do — still gets its tools run.
  @Test func usageReportedOnAResponseAfterTheCallsRunsTheTools() async throws {
    let calls = Round([
      .toolCalls(
        entryID: "chatcmpl-1",
        action: .toolCall(id: "call_1", name: "weather", action: .appendArguments(#"{"city":"Oslo"}"#, tokenCount: 5))),
      .response(entryID: "chatcmpl-1", action: usage(input: 40, cached: 0, output: 5)),
    ])
    let answer = Round([
      .response(entryID: "chatcmpl-2", action: .appendText("Cold in Oslo.", tokenCount: 4)),
      .response(entryID: "chatcmpl-2", action: usage(input: 60, cached: 40, output: 4)),
    ])
    let model = ScriptedProvider([calls, answer])
    let session = LanguageModelSession(model: model, tools: [Weather()], instructions: "Use tools.")
    let response = try await session.respond(to: "Weather in Oslo?")

    #expect(response.content == "Cold in Oslo.")
    #expect(response.transcriptEntries.map(\.kindName) == ["prompt", "toolCalls", "toolOutput", "response"])
    #expect(model.script.requests.count == 2, "the tool ran and the model was asked again")
    #expect(response.usage.input.totalTokenCount == 100, "the usage of both rounds counts")
    #expect(response.usage.output.totalTokenCount == 9)
  }

  @Test func aToolThatThrowsEndsTheTurnWithToolCallError() async throws {
    let model = ScriptedProvider([
      Round([
        .toolCalls(
          action: .toolCall(id: "c1", name: "weather", action: .appendArguments(#"{"city":"Nowhere"}"#, tokenCount: 3)))
      ])
    ])
    let session = LanguageModelSession(model: model, tools: [Weather()])
    await #expect {
      try await session.respond(to: "Weather?")
    } throws: { error in
      guard let error = error as? LanguageModelSession.ToolCallError else { return false }
      return error.tool.name == "weather" && error.underlyingError is Weather.UnknownCity
    }
    #expect(session.transcript.count == 1, "only the instructions: the failed turn left nothing")
  }

  @Test func aCallToAToolTheSessionLacksIsAParsingError() async throws {
    let model = ScriptedProvider([
      Round([.toolCalls(action: .toolCall(id: "c1", name: "stocks", action: .appendArguments("{}", tokenCount: 1)))])
    ])
    let session = LanguageModelSession(model: model, tools: [Weather()])
    await #expect(throws: GeneratedContent.ParsingError.self) { try await session.respond(to: "Stocks?") }
  }

  @Test func argumentsThatAreNotJSONAreAParsingError() async throws {
    let model = ScriptedProvider([
      Round([
        .toolCalls(
          action: .toolCall(id: "c1", name: "weather", action: .appendArguments(#"{"city":"Os"#, tokenCount: 3)))
      ])
    ])
    let session = LanguageModelSession(model: model, tools: [Weather()])
    await #expect {
      try await session.respond(to: "Weather?")
    } throws: { error in
      (error as? GeneratedContent.ParsingError)?.rawContent == #"{"city":"Os"#
    }
  }

  @Test func aRetractedCallIsNotRun() async throws {
    let model = ScriptedProvider([
      Round([
        .toolCalls(
          action: .toolCall(id: "c1", name: "weather", action: .appendArguments(#"{"city":"Oslo"}"#, tokenCount: 3))),
        .toolCalls(
          action: .toolCall(id: "c2", name: "weather", action: .appendArguments(#"{"city":"Rome"}"#, tokenCount: 3))),
        .toolCalls(action: .removeToolCall(id: "c1")),
      ]),
      Round([.response(action: .appendText("Warm.", tokenCount: 1))]),
    ])
    let weather = Weather()
    let session = LanguageModelSession(model: model, tools: [weather])
    let response = try await session.respond(to: "Weather?")
    #expect(weather.cities == ["Rome"])
    #expect(response.content == "Warm.")
  }
}

extension Transcript.Entry {
  var kindName: String {
    switch self {
    case .instructions: "instructions"
    case .prompt: "prompt"
    case .toolCalls: "toolCalls"
    case .toolOutput: "toolOutput"
    case .response: "response"
    case .reasoning: "reasoning"
    @unknown default: "unknown"
    }
  }
}
