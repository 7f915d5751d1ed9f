import FMTestSupport
import Foundation
import FoundationModels
import Observation
import Synchronization
import Testing

/// The session's behaviour on a scripted model: no weights, the real engine underneath.
@Suite struct LanguageModelSessionTests {
  static let reply = "The sea is calm today."

  func model(delay: Double = 0, contextSize: Int? = nil, reply: String = reply) -> SystemLanguageModel {
    .scripted(
      .replying(reply, tokens: ["The", " sea", " is", " calm", " today", "."], delay: delay), contextSize: contextSize)
  }

  @Test func respondAppendsPromptAndResponseToTheTranscript() async throws {
    let session = LanguageModelSession(model: model(), instructions: "Be brief.")
    let response = try await session.respond(to: "How is the sea?")
    #expect(response.content == Self.reply)
    #expect(response.rawContent == GeneratedContent(Self.reply))
    let entries = Array(session.transcript)
    #expect(entries.count == 3)
    guard case .instructions = entries[0], case .prompt(let prompt) = entries[1], case .response = entries[2] else {
      Issue.record("unexpected transcript \(entries)")
      return
    }
    #expect(prompt.segments == [.text(.init(id: prompt.segments[0].id, content: "How is the sea?"))])
    #expect(Array(response.transcriptEntries) == Array(entries[1...]))
    #expect(response.usage.output.totalTokenCount > 0)
  }

  @Test func streamingYieldsCumulativeSnapshots() async throws {
    let session = LanguageModelSession(model: model())
    var snapshots: [String] = []
    let stream = session.streamResponse(to: "How is the sea?")
    for try await snapshot in stream { snapshots.append(snapshot.content) }
    #expect(snapshots.count > 2)
    #expect(snapshots.last == Self.reply)
    for (earlier, later) in zip(snapshots, snapshots.dropFirst()) { #expect(later.hasPrefix(earlier)) }
    let response = try await stream.collect()
    #expect(response.content == Self.reply)
    #expect(session.transcript.count == 2)
  }

  @Test func builderPromptsJoinTheirParts() async throws {
    let session = LanguageModelSession(model: model())
    let rhyme = true
    try await session.respond {
      "Describe the sea."
      if rhyme { "Your response MUST rhyme!" }
    }
    guard case .prompt(let prompt) = session.transcript[0], case .text(let text)? = prompt.segments.first else {
      Issue.record("no text prompt entry")
      return
    }
    #expect(prompt.segments.count == 1)
    #expect(text.content == "Describe the sea.\nYour response MUST rhyme!")
  }

  @Test func aSecondRequestWhileRespondingThrowsConcurrentRequests() async throws {
    let session = LanguageModelSession(model: model(delay: 0.02))
    let first = session.streamResponse(to: "How is the sea?")
    #expect(session.isResponding)
    await #expect {
      try await session.respond(to: "Again?")
    } throws: { error in
      guard case LanguageModelSession.GenerationError.concurrentRequests = error else { return false }
      return true
    }
    let response = try await first.collect()
    #expect(response.content == Self.reply)
    #expect(!session.isResponding)
    #expect(session.transcript.count == 2)
  }

  @Test func cancellingLeavesTheTranscriptAsItWasAndTheSessionUsable() async throws {
    let longReply = String(repeating: "The sea is calm today. ", count: 10)
    // 60 tokens of 50 ms: a loaded machine still cancels long before the reply could end.
    let session = LanguageModelSession(model: model(delay: 0.05, reply: longReply), instructions: "Be brief.")
    let consumer = Task {
      var count = 0
      for try await _ in session.streamResponse(to: "How is the sea?") {
        count += 1
        if count == 2 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return count
    }
    _ = try? await consumer.value
    #expect(session.transcript.count == 1)
    #expect(!session.isResponding)
    let response = try await session.respond(to: "How is the sea?")
    #expect(response.content == longReply)
    #expect(session.transcript.count == 3)
  }

  @Test func aPromptThatDoesNotFitThrowsBeforeDecoding() async throws {
    let session = LanguageModelSession(model: model(contextSize: 64))
    let long = String(repeating: "many words here ", count: 40)
    await #expect {
      try await session.respond(to: long)
    } throws: { error in
      guard case LanguageModelSession.GenerationError.exceededContextWindowSize(let context) = error else {
        return false
      }
      return context.debugDescription.contains("exceeds the maximum allowed context size of 64")
    }
    #expect(session.transcript.isEmpty)
    #expect(try await session.respond(to: "Sea?").content == Self.reply)
  }

  @Test func generationReachingTheWindowThrowsAndKeepsTheTranscript() async throws {
    let longReply = String(repeating: "The sea is calm today. ", count: 20)
    let session = LanguageModelSession(model: model(contextSize: 96, reply: longReply))
    await #expect(throws: LanguageModelSession.GenerationError.self) {
      try await session.respond(to: "Sea?")
    }
    #expect(session.transcript.isEmpty)
  }

  @Test func maximumResponseTokensTruncatesSilently() async throws {
    let session = LanguageModelSession(model: model())
    let response = try await session.respond(to: "Sea?", options: GenerationOptions(maximumResponseTokens: 2))
    #expect(response.content == "The sea")
    #expect(response.usage.output.totalTokenCount == 2)
  }

  @Test func aNonPositiveTokenBudgetIsAClearErrorAndChangesNothing() async throws {
    let session = LanguageModelSession(model: model())
    await #expect {
      try await session.respond(to: "Sea?", options: GenerationOptions(maximumResponseTokens: 0))
    } throws: { error in
      "\(error.localizedDescription)".contains("maximumResponseTokens must be positive")
    }
    #expect(session.transcript.isEmpty)
    #expect(try await session.respond(to: "Sea?").content == Self.reply)
  }

  @Test func aSessionFromATranscriptContinuesIt() async throws {
    let model = model()
    let first = LanguageModelSession(model: model, instructions: "Be brief.")
    try await first.respond(to: "How is the sea?")
    let resumed = LanguageModelSession(model: model, transcript: first.transcript)
    #expect(resumed.transcript == first.transcript)
    let response = try await resumed.respond(to: "And tomorrow?")
    #expect(resumed.transcript.count == 5)
    // The second turn of the resumed session reuses the KV cache of its first.
    let again = try await resumed.respond(to: "And after?")
    #expect(again.usage.input.cachedTokenCount > response.usage.input.totalTokenCount - 2)
  }

  @Test func tokenCountsFollowTheChatTemplate() async throws {
    let model = model()
    let prompt = try await model.tokenCount(for: "How is the sea?")
    let instructions = try await model.tokenCount(for: Instructions("Be brief."))
    #expect(prompt > "How is the sea?".count / 4)
    let session = LanguageModelSession(model: model, instructions: "Be brief.")
    try await session.respond(to: "How is the sea?")
    let transcript = try await model.tokenCount(for: session.transcript)
    #expect(transcript > prompt + instructions)
  }

  @Test func aMissingModelIsUnavailableAndRequestsFailClearly() async throws {
    let model = SystemLanguageModel(name: "/nonexistent/model.gguf")
    #expect(model.availability == .unavailable(.modelNotReady))
    #expect(!model.isAvailable)
    let session = LanguageModelSession(model: model)
    await #expect {
      try await session.respond(to: "Hi")
    } throws: { error in
      guard case LanguageModelSession.GenerationError.assetsUnavailable = error else { return false }
      return true
    }
    #expect(session.transcript.isEmpty)
    #expect(!session.isResponding)
  }

  @Test func anUnknownModelNameFailsWithTheNamesAndHowToFetchThem() async throws {
    let session = LanguageModelSession(model: SystemLanguageModel(name: "llama-70b"))
    await #expect {
      try await session.respond(to: "Hi")
    } throws: { error in
      guard case LanguageModelSession.GenerationError.assetsUnavailable(let context) = error else { return false }
      return context.debugDescription
        == "unknown model 'llama-70b': use one of smollm2-135m, gemma3-270m, qwen2.5-coder-0.5b, qwen2.5-coder-1.5b "
        + "(fetch with: fm models pull NAME), a Hugging Face model hf:OWNER/REPO[:QUANT] or a path to a .gguf file"
    }
  }

  @Test func contextSizeDefaultsToApples() {
    #expect(SystemLanguageModel.default.contextSize == 4096)
    #expect(SystemLanguageModel(name: "smollm2-135m", contextSize: 2048).contextSize == 2048)
  }
}

@Suite struct LanguageModelSessionExtrasTests {
  @Test func prewarmEvaluatesTheInstructionsAhead() async throws {
    let model = SystemLanguageModel.scripted(.replying("Calm.", tokens: ["Calm", "."]))
    let session = LanguageModelSession(model: model, instructions: "You describe the sea in one word.")
    session.prewarm()
    try await Task.sleep(for: .milliseconds(200))
    let response = try await session.respond(to: "How is the sea?")
    #expect(response.usage.input.cachedTokenCount > 10)
  }

  @Test func feedbackAttachmentRecordsTheSession() async throws {
    let session = LanguageModelSession(model: .scripted(.replying("Calm.")))
    try await session.respond(to: "How is the sea?")
    let data = session.logFeedbackAttachment(
      sentiment: .negative, issues: [.init(category: .tooVerbose, explanation: "long")], desiredResponseText: "Calm")
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["sentiment"] as? String == "negative")
    #expect(object["desiredOutput"] as? String == "Calm")
    #expect((object["issues"] as? [[String: Any]])?.first?["category"] as? String == "tooVerbose")
    #expect(object["transcript"] != nil)
  }

  @Test func isRespondingIsObservable() async throws {
    let session = LanguageModelSession(model: .scripted(.replying("Calm.", delay: 0.01)))
    let changed = ObservationFlag()
    withObservationTracking {
      _ = session.isResponding
    } onChange: {
      changed.set()
    }
    try await session.respond(to: "How is the sea?")
    #expect(changed.isSet)
  }
}

private final class ObservationFlag: Sendable {
  private let value = Mutex(false)
  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}
