import FMTestSupport
import Foundation
import FoundationModels
import Synchronization
import Testing

/// A forecast the model fills in: short by construction, so a small model finishes it.
@Generable struct Forecast {
  @Guide(description: "The sky", .anyOf(["sunny", "cloudy", "rainy"]))
  var sky: String
  @Guide(description: "Degrees Celsius", .range(-30...45))
  var celsius: Int
}

/// Arguments of ``TideTable``.
@Generable struct Harbour {
  @Guide(description: "The harbour's name")
  var name: String
}

/// A tool that records the harbours it is asked about.
final class TideTable: Tool, Sendable {
  let name = "tideTable"
  let description = "Tells when the tide is high in a harbour."
  let asked = Mutex<[String]>([])

  func call(arguments: Harbour) async throws -> String {
    asked.withLock { $0.append(arguments.name) }
    return "High tide in \(arguments.name) is at 14:05."
  }
}

/// Code written the way Apple's 27 documentation writes it, with the model passed in: the same
/// code runs on our local model and on a server's (`SampleModel`). Generated text differs
/// between models and CPUs: the checks are properties.
@Suite(.serialized) struct AnyModelSampleTests {
  @Test(arguments: SampleModel.available)
  func aStreamedAnswerReportsItsUsage(_ kind: SampleModel) async throws {
    try await kind.with { model in
      let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
      let stream = session.streamResponse(
        to: "Name three colours.", options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24))
      var last = ""
      for try await snapshot in stream {
        #expect(snapshot.content.hasPrefix(last))
        last = snapshot.content
      }
      let response = try await stream.collect()
      #expect(response.content == last && !last.isEmpty)
      #expect(response.usage.input.totalTokenCount > 0)
      #expect((1...24).contains(response.usage.output.totalTokenCount))
      #expect(session.usage.output.totalTokenCount == response.usage.output.totalTokenCount)
    }
  }

  @Test(arguments: SampleModel.available)
  func aGenerableAnswerStreamsPartsAndDecodes(_ kind: SampleModel) async throws {
    try await kind.with { model in
      let session = LanguageModelSession(model: model, instructions: "You are a weather service.")
      let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 64)
      let stream = session.streamResponse(
        to: "The forecast for Brest tomorrow.", generating: Forecast.self, options: options)
      var partials = 0
      for try await _ in stream { partials += 1 }
      let forecast = try await stream.collect().content
      #expect(partials > 0)
      #expect(["sunny", "cloudy", "rainy"].contains(forecast.sky))
      #expect((-30...45).contains(forecast.celsius))
    }
  }

  /// `toolCallingMode: .required` makes the turn start with a call; its arguments decode into
  /// the tool's `Arguments`, its output goes back, and the model answers after it. A server
  /// whose model cannot call tools (llama-server with SmolLM2's template, which has none)
  /// answers in text: that is an error, and the transcript stays as it was. What the model does
  /// after the tool's output depends on the text it writes on this CPU: a small model may call
  /// again and again, which the loop guard ends with `timeout` — after the required call ran.
  @Test(arguments: SampleModel.available)
  func aRequiredToolCallRunsTheToolAndTheModelAnswers(_ kind: SampleModel) async throws {
    try await kind.with { model in
      let tides = TideTable()
      let session = LanguageModelSession(
        model: model, tools: [tides], instructions: "Use the tide table for questions about tides.")
      let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 48, toolCallingMode: .required)
      let answer: LanguageModelSession.Response<String>
      do {
        answer = try await session.respond(to: "When is high tide in Brest?", options: options)
      } catch LanguageModelError.unsupportedCapability(let unsupported) where kind == .server {
        #expect(unsupported.capability == .toolCalling)
        #expect(tides.asked.withLock { $0.isEmpty } && session.transcript.count == 1)
        return
      } catch LanguageModelError.timeout {
        #expect(tides.asked.withLock { $0.count } >= 1, "the required call ran before the loop guard ended the turn")
        #expect(session.transcript.count == 1, "the failed turn left the transcript as it was")
        return
      }
      #expect(tides.asked.withLock { $0.count } >= 1)
      #expect(session.transcript.contains { if case .toolCalls = $0 { true } else { false } })
      #expect(session.transcript.contains { if case .toolOutput = $0 { true } else { false } })
      guard case .response? = session.transcript.last else {
        Issue.record("the turn ends with the model's answer")
        return
      }
      #expect(answer.usage.output.totalTokenCount > 0)
    }
  }

  /// A saved transcript (JSON) starts a new session that goes on with the conversation.
  @Test(arguments: SampleModel.available)
  func aSavedTranscriptGoesOnInANewSession(_ kind: SampleModel) async throws {
    try await kind.with { model in
      let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16)
      let first = LanguageModelSession(model: model, instructions: "Answer briefly.")
      _ = try await first.respond(to: "What is a harbour?", options: options)
      let saved = try JSONEncoder().encode(first.transcript)
      let restored = try JSONDecoder().decode(Transcript.self, from: saved)
      #expect(restored == first.transcript)
      let next = LanguageModelSession(model: model, transcript: restored)
      _ = try await next.respond(to: "And a quay?", options: options)
      #expect(next.transcript.count == first.transcript.count + 2)
    }
  }
}
