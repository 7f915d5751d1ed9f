import FMTestSupport
import Foundation
import FoundationModels
import Testing

/// The public API on the real small model (`smollm2-135m`).
@Suite struct RealModelSessionTests {
  let model = SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: 1024)
  let greedy = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24)

  @Test func theModelIsAvailable() {
    #expect(model.isAvailable)
    #expect(model.supportsLocale(Locale(identifier: "en_US")))
    #expect(!model.supportsLocale(Locale(identifier: "ja_JP")))
  }

  @Test func greedyAnswersAreDeterministicAndTheSecondTurnReusesTheCache() async throws {
    let first = LanguageModelSession(model: model, instructions: "Answer in one sentence.")
    let second = LanguageModelSession(model: model, instructions: "Answer in one sentence.")
    let a = try await first.respond(to: "What is the sea?", options: greedy)
    let b = try await second.respond(to: "What is the sea?", options: greedy)
    #expect(!a.content.isEmpty)
    #expect(a.content == b.content)
    let followUp = try await first.respond(to: "And a lake?", options: greedy)
    #expect(followUp.usage.input.cachedTokenCount >= a.usage.input.totalTokenCount)
    #expect(first.transcript.count == 5)
  }

  /// One session per request, as Apple recommends: each new session finds the instructions the
  /// last one left in the kept context, every time (the ended session's context is back with
  /// the model before the next one starts), and answers as a fresh cache would.
  @Test func aNewSessionWithTheSameInstructionsReusesTheCacheTheLastOneLeft() async throws {
    // A context size of its own, so that no other test's context takes the model's one slot
    // (tests run one at a time under scripts/test).
    let model = SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: 1536)
    let instructions = "You are a sailor. Answer in one short sentence about the sea, the wind and the boats."
    let greedy = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16, toolCallingMode: .disallowed)
    var answers: [String: String] = [:]
    for (index, prompt) in ["What is a gale?", "What is a squall?", "What is a gale?", "What is a swell?"].enumerated()
    {
      let session = LanguageModelSession(model: model, tools: [WeatherTool(), ClockTool()], instructions: instructions)
      let response = try await session.respond(to: prompt, options: greedy)
      let (cached, total) = (response.usage.input.cachedTokenCount, response.usage.input.totalTokenCount)
      if index > 0 {
        // The instructions (and the template's turn markers) are found in the cache.
        #expect(cached >= 20, "session \(index) reused \(cached) of \(total) tokens")
        #expect(cached < total)
      }
      if let earlier = answers[prompt] { #expect(response.content == earlier, "the same request, the same answer") }
      answers[prompt] = response.content
    }
  }

  /// A session on the same weights with a context of another size that ends between two
  /// sessions — the guardrails' judge's (a smaller context of its own), another part of an
  /// app's, or one whose engine was let go of a moment late — leaves the cache the first one
  /// left for the next: the model keeps a context per configuration. (With one kept in all, the
  /// other context replaced it and the next session evaluated all of its prompt again.)
  @Test func anotherSizesSessionEndingInBetweenLeavesTheCacheTheLastOneLeft() async throws {
    // Context sizes no other test uses, so that only this test's sessions return contexts here.
    let model = SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: 1280)
    let other = SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: 640)
    let instructions = "You are a sailor. Answer in one short sentence about the sea, the wind and the boats."
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 4)
    _ = try await LanguageModelSession(model: model, instructions: instructions).respond(
      to: "What is a gale?", options: options)
    _ = try await LanguageModelSession(model: other, instructions: "Be brief.").respond(to: "Hi", options: options)
    let next = try await LanguageModelSession(model: model, instructions: instructions).respond(
      to: "What is a squall?", options: options)
    let (cached, total) = (next.usage.input.cachedTokenCount, next.usage.input.totalTokenCount)
    #expect(cached >= 20, "reused \(cached) of \(total) tokens")
    #expect(cached < total)
  }

  @Test func streamedSnapshotsEndWithTheResponse() async throws {
    let session = LanguageModelSession(model: model)
    let stream = session.streamResponse(to: "Name three colours.", options: greedy)
    var last = ""
    for try await snapshot in stream {
      #expect(snapshot.content.hasPrefix(last))
      last = snapshot.content
    }
    #expect(try await stream.collect().content == last)
  }

  @Test func tokenCountMatchesWhatTheSessionFeedsTheModel() async throws {
    let session = LanguageModelSession(model: model, instructions: "Be brief.")
    let response = try await session.respond(to: "Hello", options: greedy)
    let beforeResponse = try await model.tokenCount(for: session.transcript.dropLast())
    // The rendered prompt is the transcript up to the prompt plus the assistant header.
    let header = try await TestModels.smolLM2().tokenize("<|im_start|>assistant\n", parseSpecial: true).count
    #expect(response.usage.input.totalTokenCount == beforeResponse + header)
  }

  @Test func countsOfPartsAddUpToTheTranscript() async throws {
    let instructions = Instructions("Be brief.")
    let entries: [Transcript.Entry] = [
      .instructions(.init(segments: [.text(.init(content: "Be brief."))], toolDefinitions: [])),
      .prompt(.init(segments: [.text(.init(content: "How is the sea?"))])),
    ]
    let whole = try await model.tokenCount(for: entries)
    let parts = try await model.tokenCount(for: instructions) + model.tokenCount(for: "How is the sea?")
    #expect(whole == parts)
  }
}

/// Tool calls of the real small model: whatever it chooses, every call decodes.
@Suite struct RealModelToolCallingTests {
  let model = SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: 2048)

  @Test(arguments: [GenerationOptions.ToolCallingMode.required, .allowed])
  func everyCallTheModelMakesDecodesIntoItsToolsArguments(mode: GenerationOptions.ToolCallingMode) async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: model, tools: [weather, ClockTool()], instructions: "Use the tools to answer.")
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 48, toolCallingMode: mode)
    do {
      _ = try await session.respond(to: "What is the weather in Paris, and the time at UTC+1?", options: options)
    } catch LanguageModelError.timeout {
      // A small model may keep calling: the loop guard ends the turn, and the calls made stay.
    }
    let calls = session.transcript.flatMap { entry -> [Transcript.ToolCall] in
      if case .toolCalls(let calls) = entry { Array(calls) } else { [] }
    }
    if mode == .required { #expect(!calls.isEmpty) }
    for call in calls {
      switch call.toolName {
      case "getWeather": _ = try City(call.arguments)
      case "getTime": #expect((-12...14).contains(try Zone(call.arguments).offset))
      default: Issue.record("a call to \(call.toolName)")
      }
    }
  }
}
