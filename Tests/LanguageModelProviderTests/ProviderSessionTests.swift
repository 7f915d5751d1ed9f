import Foundation
import FoundationModels
import Testing

/// The session drives a provider's executor: events become transcript entries, snapshots and
/// usage; the request carries what the caller asked for; errors pass through unchanged.
@Suite struct ProviderSessionTests {
  @Test func streamedTextBecomesSnapshotsAResponseAndUsage() async throws {
    let model = ScriptedProvider([
      Round([
        .response(action: .appendText("Hel", tokenCount: 1)), .response(action: .appendText("lo", tokenCount: 1)),
        .response(action: usage(input: 12, cached: 4, output: 2)),
      ]),
      Round([.response(action: .appendText("Again", tokenCount: 1)), .response(action: usage(input: 20, output: 1))]),
    ])
    let session = LanguageModelSession(model: model, instructions: "Be brief.")
    var snapshots: [String] = []
    let stream = session.streamResponse(to: "Hi")
    for try await snapshot in stream { snapshots.append(snapshot.content) }
    let response = try await stream.collect()
    #expect(snapshots == ["Hel", "Hello"])
    #expect(response.content == "Hello")
    #expect(response.usage.input.totalTokenCount == 12)
    #expect(response.usage.input.cachedTokenCount == 4)
    #expect(response.usage.output.totalTokenCount == 2)
    #expect(response.transcriptEntries.count == 2)
    #expect(session.transcript.count == 3, "instructions, prompt, response")

    _ = try await session.respond(to: "Once more")
    #expect(session.usage.input.totalTokenCount == 32, "the session's usage adds its turns")
    #expect(session.usage.totalTokenCount == 35)
    // The provider saw the whole conversation on its second request.
    let second = try #require(model.script.requests.last)
    #expect(second.transcript.count == 4)
    #expect(second.transcript.last?.description == "(Prompt) Once more")
  }

  @Test func reasoningIsKeptWithItsSignatureAndSentBack() async throws {
    let signature = Data([1, 2, 3])
    let model = ScriptedProvider([
      Round([
        .reasoning(action: .appendText("Thinking", tokenCount: 1)),
        .reasoning(action: .updateSignature(signature, tokenCount: 0)),
        .response(action: .appendText("Answer", tokenCount: 1)),
        .response(action: .updateMetadata(["stopReason": "end_turn"])),
      ]),
      Round([.response(action: .appendText("Next", tokenCount: 1))]),
    ])
    let session = LanguageModelSession(model: model)
    let response = try await session.respond(to: "Why?")
    guard case .reasoning(let reasoning) = response.transcriptEntries.dropFirst().first,
      case .response(let answer) = response.transcriptEntries.last
    else {
      Issue.record("expected reasoning, then the response: \(response.transcriptEntries)")
      return
    }
    #expect(reasoning.description == "Thinking")
    #expect(reasoning.signature == signature)
    #expect(answer.metadata["stopReason"] as? String == "end_turn")
    #expect(response.content == "Answer")

    _ = try await session.respond(to: "And?")
    let sentBack = model.script.requests.last?.transcript.compactMap { entry -> Data? in
      if case .reasoning(let reasoning) = entry { return reasoning.signature }
      return nil
    }
    #expect(sentBack == [signature])
  }

  @Test func theRequestCarriesOptionsContextOptionsMetadataAndTools() async throws {
    let model = ScriptedProvider([Round([.response(action: .appendText("ok", tokenCount: 1))])])
    let session = LanguageModelSession(model: model, tools: [Weather()], instructions: "Help.")
    let options = GenerationOptions(
      samplingMode: .random(top: 5, seed: 7), temperature: 0.5, maximumResponseTokens: 9, toolCallingMode: .disallowed)
    _ = try await session.respond(
      to: "Hi", options: options, contextOptions: ContextOptions(reasoningLevel: .deep), metadata: ["user": "42"])
    let request = try #require(model.script.requests.first)
    #expect(request.generationOptions.samplingMode?.kind == .randomTopK(5, seed: 7))
    #expect(request.generationOptions.toolCallingMode?.kind == .disallowed)
    #expect(request.contextOptions.reasoningLevel == .deep)
    #expect(request.metadata["user"] as? String == "42")
    #expect(request.enabledToolDefinitions.map(\.name) == ["weather"])
    #expect(request.schema == nil)
    guard case .prompt(let prompt)? = session.transcript.entries(ofKind: .prompt).first else {
      Issue.record("no prompt entry")
      return
    }
    #expect(prompt.metadata["user"] as? String == "42")
    #expect(prompt.contextOptions.reasoningLevel == .deep)
  }

  @Test func structuredOutputFromAProviderIsParsedIntoTheType() async throws {
    let model = ScriptedProvider([
      Round([
        .response(action: .appendText(#"{"city":"Os"#, tokenCount: 3)),
        .response(action: .appendText(#"lo","temperature":-3}"#, tokenCount: 4)),
      ])
    ])
    let session = LanguageModelSession(model: model)
    var partialCities: [String?] = []
    let stream = session.streamResponse(to: "Weather?", generating: Forecast.self)
    for try await snapshot in stream { partialCities.append(snapshot.content.city) }
    let response = try await stream.collect()
    #expect(response.content.city == "Oslo")
    #expect(response.content.temperature == -3)
    #expect(partialCities == ["Os", "Oslo"])
    #expect(model.script.requests.first?.schema != nil)
    #expect(model.script.requests.first?.contextOptions.includeSchemaInPrompt == true)
  }

  @Test func proseWhereAStructureWasAskedForIsAParsingError() async throws {
    let model = ScriptedProvider([Round([.response(action: .appendText("Sure! Oslo is cold.", tokenCount: 5))])])
    let session = LanguageModelSession(model: model)
    await #expect(throws: GeneratedContent.ParsingError.self) {
      try await session.respond(to: "Weather?", generating: Forecast.self)
    }
    #expect(session.transcript.isEmpty, "a failed turn leaves the transcript as it was")
  }

  @Test func aRequestNeedingAMissingCapabilityIsRefusedBeforeTheExecutor() async throws {
    let model = ScriptedProvider([], capabilities: [])
    let session = LanguageModelSession(model: model)
    await #expect {
      try await session.respond(to: "Weather?", generating: Forecast.self)
    } throws: { error in
      guard case LanguageModelError.unsupportedCapability(let payload) = error else { return false }
      return payload.capability == .guidedGeneration
    }
    let withTools = LanguageModelSession(model: model, tools: [Weather()])
    await #expect {
      try await withTools.respond(to: "Weather?")
    } throws: { error in
      guard case LanguageModelError.unsupportedCapability(let payload) = error else { return false }
      return payload.capability == .toolCalling
    }
    #expect(model.script.requests.isEmpty)
  }

  @Test func aProvidersErrorReachesTheCallerUnchangedAndTheSessionGoesOn() async throws {
    let reset = Date(timeIntervalSince1970: 1_800_000_000)
    let model = ScriptedProvider([
      Round(
        [.response(action: .appendText("partial", tokenCount: 1))],
        error: LanguageModelError.rateLimited(.init(resetDate: reset, debugDescription: "429 from the server"))),
      Round([.response(action: .appendText("fine", tokenCount: 1))]),
    ])
    let session = LanguageModelSession(model: model, instructions: "Help.")
    await #expect {
      try await session.respond(to: "Hi")
    } throws: { error in
      guard case LanguageModelError.rateLimited(let payload) = error else { return false }
      return payload.resetDate == reset && payload.debugDescription == "429 from the server"
    }
    #expect(session.transcript.count == 1, "nothing of the failed turn was kept")
    #expect(!session.isResponding)
    #expect(try await session.respond(to: "Again").content == "fine")
  }

  /// The first turn's executor pauses after its text until cancelled, so the turn is still
  /// under way when the second request comes, however the threads are scheduled (an executor
  /// that answered at once could end the turn first: the second request then ran, once in a full
  /// run). The first stream's reader is then cancelled, which ends the turn.
  @Test func aSecondRequestWhileRespondingIsConcurrentRequests() async throws {
    let model = ScriptedProvider([
      Round([.response(action: .appendText("one", tokenCount: 1))], pause: .seconds(30))
    ])
    let session = LanguageModelSession(model: model)
    let first = session.streamResponse(to: "One")
    await #expect(throws: LanguageModelSession.Error.concurrentRequests) {
      try await session.respond(to: "Two")
    }
    let reader = Task { try await first.collect() }
    reader.cancel()
    _ = await reader.result
    let deadline = ContinuousClock.now + .seconds(10)
    while session.isResponding, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    #expect(!session.isResponding, "cancelling the first stream's reader ended its turn")
  }

  @Test func aCancelledStreamLeavesTheTranscriptAsItWasAndTheSessionFree() async throws {
    let model = ScriptedProvider([
      Round([.response(action: .appendText("Once upon", tokenCount: 2))], error: nil, pause: .seconds(30)),
      Round([.response(action: .appendText("Done.", tokenCount: 1))]),
    ])
    let session = LanguageModelSession(model: model, instructions: "Tell stories.")
    #expect(try await dropStream(of: session, prompt: "A long story", whenTextIs: "Once upon"))
    #expect(!session.isResponding)
    #expect(session.transcript.count == 1, "only the instructions")
    #expect(try await session.respond(to: "Short one").content == "Done.")
  }

  @Test func separateSegmentsAndEntriesFollowTheirIDs() async throws {
    let model = ScriptedProvider([
      Round([
        .response(entryID: "r1", action: .appendText("First", segmentID: "a", tokenCount: 1)),
        .response(entryID: "r1", action: .appendText(" part", segmentID: "a", tokenCount: 1)),
        .response(entryID: "r1", action: .appendText("Second", segmentID: "b", tokenCount: 1)),
        .response(entryID: "r1", action: .replaceTextSegment("SECOND", segmentID: "b", tokenCount: 1)),
      ])
    ])
    let session = LanguageModelSession(model: model)
    let response = try await session.respond(to: "Hi")
    guard case .response(let entry) = response.transcriptEntries.last else {
      Issue.record("no response entry")
      return
    }
    #expect(entry.id == "r1")
    #expect(entry.segments.map(\.id) == ["a", "b"])
    #expect(entry.segments.map(\.description) == ["First part", "SECOND"])
  }
}

extension Transcript {
  enum Kind { case prompt }

  func entries(ofKind kind: Kind) -> [Entry] {
    filter { if case .prompt = $0 { true } else { false } }
  }
}
