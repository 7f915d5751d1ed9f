import Foundation
import FoundationModels
import Testing

/// A session on a custom provider, as an app written for Apple's 27 SDK uses one.
@Suite struct ProviderSampleTests {
  @Test func aSessionOnACustomModelStreamsTheAnswerWithItsUsageAndMetadata() async throws {
    let model = MyLanguageModel()
    let session = LanguageModelSession(model: model, instructions: "Reverse what I say.")
    let response = try await session.respond(to: "one two three", options: GenerationOptions(samplingMode: .greedy))
    #expect(response.content == "three two one")
    #expect(response.usage.output.totalTokenCount == 3)
    #expect(session.usage.totalTokenCount == response.usage.totalTokenCount)
    guard case .response(let entry) = session.transcript.last else {
      Issue.record("the transcript ends with \(String(describing: session.transcript.last))")
      return
    }
    #expect(entry.metadata["modelID"] as? String == "my-model-2026-06-08")
    #expect(entry.metadata["temperature"] as? Double == 0)
    #expect(model.log.all.count == 1)
    #expect(model.log.all[0].generationOptions.samplingMode == .greedy)
  }

  @Test func theSamplingModeReachesTheExecutorAsAKind() async throws {
    // A reasoning level is for models that list `.reasoning`.
    let model = MyLanguageModel(capabilities: [.guidedGeneration, .reasoning])
    let session = LanguageModelSession(model: model)
    let options = GenerationOptions(
      samplingMode: .random(top: 40, seed: 7), temperature: 0.8, maximumResponseTokens: 100, toolCallingMode: .allowed)
    _ = try await session.respond(to: "hello", options: options, contextOptions: ContextOptions(reasoningLevel: .light))
    let request = try #require(model.log.all.first)
    switch request.generationOptions.samplingMode?.kind {
    case .randomTopK(let k, let seed)?:
      #expect(k == 40)
      #expect(seed == 7)
    default:
      Issue.record("sampling reached the executor as \(String(describing: request.generationOptions.samplingMode))")
    }
    #expect(request.generationOptions.toolCallingMode?.kind == .allowed)
    #expect(request.contextOptions.reasoningLevel == .light)
  }

  @Test func metadataGivenToRespondReachesTheRequestAndThePromptEntry() async throws {
    let model = MyLanguageModel()
    let session = LanguageModelSession(model: model)
    _ = try await session.respond(to: "hi", metadata: ["traceID": "abc"])
    #expect(model.log.all.first?.metadata["traceID"] as? String == "abc")
    guard case .prompt(let prompt) = session.transcript.first else {
      Issue.record("no prompt entry")
      return
    }
    #expect(prompt.metadata["traceID"] as? String == "abc")
  }

  @Test func errorsAreCaughtTheWay27CodeCatchesThem() async throws {
    let session = LanguageModelSession(model: MyLanguageModel(capabilities: []))
    do {
      _ = try await session.respond(to: "hi", generating: Recipe.self)
      Issue.record("a model without guided generation answered with a schema")
    } catch let error as LanguageModelError {
      switch error {
      case .unsupportedCapability(let context):
        #expect(context.capability == .guidedGeneration)
      case .contextSizeExceeded, .rateLimited, .guardrailViolation, .refusal, .unsupportedTranscriptContent,
        .unsupportedGenerationGuide, .unsupportedLanguageOrLocale, .timeout:
        Issue.record("unexpected \(error)")
      @unknown default:
        Issue.record("unknown \(error)")
      }
    }
    #expect(session.transcript.isEmpty)
    #expect(try await session.respond(to: "still usable").content == "usable still")
  }
}

@Generable(name: "Recipe", description: "A dish")
struct Recipe {
  var title: String
  var cuisine: String
}
