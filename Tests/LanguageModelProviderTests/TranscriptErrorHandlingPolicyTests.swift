import Foundation
import FoundationModels
import Observation
import Synchronization
import Testing

/// What a failed request leaves in the transcript: nothing by default and with
/// `.revertTranscript`; with `.preserveTranscript`, the prompt and whatever the model and the
/// tools produced before the failure. A cancelled request never leaves anything.
@Suite struct TranscriptErrorHandlingPolicyTests {
  private static let rateLimited = LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "429"))

  /// A round that starts an answer and then fails.
  private static let failingMidAnswer = Round(
    [.response(action: .appendText("Once upon", tokenCount: 2))], error: rateLimited)

  /// A round that calls the weather tool.
  private static let callsWeatherInOslo = Round([
    .toolCalls(
      action: .toolCall(id: "c1", name: "weather", action: .appendArguments(#"{"city":"Oslo"}"#, tokenCount: 4)))
  ])

  private static func isRateLimited(_ error: any Error) -> Bool {
    if case LanguageModelError.rateLimited = error { return true }
    return false
  }

  @Test(arguments: [nil, TranscriptErrorHandlingPolicy.revertTranscript])
  func aFailedRequestLeavesTheTranscriptAsItWas(policy: TranscriptErrorHandlingPolicy?) async throws {
    let model = ScriptedProvider([
      Self.callsWeatherInOslo, Self.failingMidAnswer,
    ])
    let session = LanguageModelSession(model: model, tools: [Weather()], instructions: "Use tools.")
    session.transcriptErrorHandlingPolicy = policy
    await #expect { try await session.respond(to: "A story about Oslo's weather") } throws: { Self.isRateLimited($0) }
    #expect(session.transcript.map(\.kindName) == ["instructions"])
  }

  @Test func preserveKeepsThePromptAndThePartialAnswer() async throws {
    let model = ScriptedProvider([
      Self.failingMidAnswer, Round([.response(action: .appendText("Done.", tokenCount: 1))]),
    ])
    let session = LanguageModelSession(model: model, instructions: "Tell stories.")
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    await #expect { try await session.respond(to: "A story") } throws: { Self.isRateLimited($0) }
    #expect(
      session.transcript.map(\.description) == [
        "(Instructions) Tell stories.", "(Prompt) A story", "(Response) Once upon",
      ])
    #expect(!session.isResponding)
    #expect(session.usage.totalTokenCount == 0, "usage counts completed requests")

    // The next request goes on from the kept entries.
    #expect(try await session.respond(to: "Finish it").content == "Done.")
    let next = try #require(model.script.requests.last)
    #expect(
      next.transcript.map(\.description).suffix(3) == [
        "(Prompt) A story", "(Response) Once upon", "(Prompt) Finish it",
      ])
  }

  @Test func preserveKeepsEarlierToolRoundsOfAFailedTurn() async throws {
    let model = ScriptedProvider([
      Self.callsWeatherInOslo, Self.failingMidAnswer,
    ])
    let session = LanguageModelSession(model: model, tools: [Weather()], instructions: "Use tools.")
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    await #expect { try await session.respond(to: "Weather in Oslo?") } throws: { Self.isRateLimited($0) }
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
    #expect(session.transcript.last?.description == "(Response) Once upon")
    guard case .toolOutput(let output) = session.transcript[3] else { return }
    #expect(output.id == "c1")
  }

  @Test func preserveKeepsTheCallsOfAToolThatFailed() async throws {
    let model = ScriptedProvider([
      Round([
        .toolCalls(
          action: .toolCall(id: "c1", name: "weather", action: .appendArguments(#"{"city":"Nowhere"}"#, tokenCount: 4)))
      ])
    ])
    let session = LanguageModelSession(model: model, tools: [Weather()])
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    await #expect(throws: LanguageModelSession.ToolCallError.self) { try await session.respond(to: "Weather?") }
    #expect(session.transcript.map(\.kindName) == ["instructions", "prompt", "toolCalls"])
  }

  @Test func preserveKeepsAnAnswerThatIsNotOfTheSchema() async throws {
    let model = ScriptedProvider([Round([.response(action: .appendText("Sure! Oslo is cold.", tokenCount: 5))])])
    let session = LanguageModelSession(model: model)
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    await #expect(throws: GeneratedContent.ParsingError.self) {
      try await session.respond(to: "Weather?", generating: Forecast.self)
    }
    #expect(session.transcript.map(\.description) == ["(Prompt) Weather?", "(Response) Sure! Oslo is cold."])
  }

  @Test func aCancelledRequestKeepsNothingEvenWithPreserve() async throws {
    let model = ScriptedProvider([
      Round([.response(action: .appendText("Once upon", tokenCount: 2))], pause: .seconds(30))
    ])
    let session = LanguageModelSession(model: model, instructions: "Tell stories.")
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    #expect(try await dropStream(of: session, prompt: "A long story", whenTextIs: "Once upon"))
    #expect(!session.isResponding)
    #expect(session.transcript.map(\.kindName) == ["instructions"])
  }

  @Test func aRequestFollowsThePolicySetWhenItStarted() async throws {
    let model = ScriptedProvider([
      Round(
        [.response(action: .appendText("Once upon", tokenCount: 2))], error: Self.rateLimited, pause: .milliseconds(200)
      )
    ])
    let session = LanguageModelSession(model: model)
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    await #expect {
      for try await _ in session.streamResponse(to: "A story") {
        session.transcriptErrorHandlingPolicy = .revertTranscript
      }
    } throws: { Self.isRateLimited($0) }
    #expect(session.transcript.map(\.kindName) == ["prompt", "response"])
  }

  @Test func settingThePolicyNotifiesObservers() {
    let session = LanguageModelSession(model: ScriptedProvider([]))
    #expect(session.transcriptErrorHandlingPolicy == nil)
    let changed = Flag()
    withObservationTracking {
      _ = session.transcriptErrorHandlingPolicy
    } onChange: {
      changed.set()
    }
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    #expect(changed.isSet)
    #expect(session.transcriptErrorHandlingPolicy != nil)
  }
}

/// Set by an observation's `onChange`, read after it.
private final class Flag: Sendable {
  private let state = Mutex(false)

  var isSet: Bool { state.withLock { $0 } }

  func set() { state.withLock { $0 = true } }
}
