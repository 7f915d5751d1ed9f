import FMTestSupport
import Foundation
@_spi(Engine) import FoundationModels
import InferenceEngine
import Testing

/// Sessions on a model with a draft model (`SystemLanguageModel(…, draftModel:)`): guided
/// generation under it, and the clear errors of a draft model that cannot guess for the model.
@Suite struct DraftModelSessionTests {
  let smolLM2 = URL(fileURLWithPath: TestModels.smolLM2Path)
  let greedy = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24)

  /// The model drafting for itself: guided output stays valid, and the response's figures
  /// count the guesses. (How many are made depends on what rows cost on the CPU, and the model
  /// drafting for itself never pays: the guessing itself is tested in `InferenceEngineTests`.)
  @Test func guidedGenerationWithADraftModelIsValidAndCountsItsGuesses() async throws {
    let model = SystemLanguageModel(path: smolLM2, contextSize: 1024, draftModel: TestModels.smolLM2Path)
    #expect(model.speculation == .draft)
    let session = LanguageModelSession(model: model)
    let response = try await session.respond(
      to: "Name a famous landmark and the year it was built.", generating: Landmark.self,
      options: GenerationOptions(samplingMode: .greedy))
    #expect((1000...2025).contains(response.content.year))
    let figures = try #require(LocalModelFigures(response.transcriptEntries))
    #expect(figures.confirmedDraftTokens <= figures.draftTokens)
  }

  /// What guesses cost is measured once, ahead of the first answer where a caller asks (as
  /// `fm chat` does): known after, and never wanted where sessions do not guess.
  @Test func speculationCostsAreMeasuredAheadOnce() async throws {
    let model = SystemLanguageModel(path: smolLM2, contextSize: 1024)
    try await model.measureSpeculationCosts()
    #expect(try await !model.speculationCostsNeedMeasuring())
    #expect(try await !SystemLanguageModel(path: smolLM2, speculation: .off).speculationCostsNeedMeasuring())
  }

  /// With a draft model, what its guesses cost is measured ahead too, on a context of its own
  /// threads (here not the model's, whose batched decodes run one). The draft model is SmolLM2
  /// under another path, a model of its own in this process, so that no measurement an earlier
  /// test made counts.
  @Test func aDraftModelsCostsAreMeasuredAheadToo() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let draftPath = directory.url.appendingPathComponent("draft.gguf")
    try FileManager.default.linkItem(atPath: TestModels.smolLM2Path, toPath: draftPath.path)
    let draft = try #require(try await SystemLanguageModel(path: draftPath).tokenModel() as? LlamaModel)
    let draftThreads = InferenceSession.draftConfiguration(contextSize: 1024).threads
    #expect(!draft.decodeCostsAreKnown(threads: draftThreads, file: nil))
    let model = SystemLanguageModel(path: smolLM2, contextSize: 1024, draftModel: draftPath.path)
      .batched(slots: 1, threads: 1)
    try await model.measureSpeculationCosts()
    #expect(draft.decodeCostsAreKnown(threads: draftThreads, file: nil))
    #expect(try await !model.speculationCostsNeedMeasuring())
  }

  /// A draft model with another mode than `.draft`, `.draft` without one, and a draft model
  /// whose vocabulary is not the model's each fail the first request with `assetsUnavailable`
  /// that says why; the transcript holds no half-made turn.
  @Test func aDraftModelThatCannotGuessIsAClearError() async throws {
    var models: [(SystemLanguageModel, String)] = [
      (SystemLanguageModel(path: smolLM2, speculation: .lookup, draftModel: TestModels.smolLM2Path), ".draft only"),
      (SystemLanguageModel(path: smolLM2, speculation: .draft), "needs a draft model"),
    ]
    if TestModels.gemma3IsPresent {
      models.append((SystemLanguageModel(path: smolLM2, draftModel: TestModels.gemma3Path), "vocabulary"))
    }
    for (model, reason) in models {
      let session = LanguageModelSession(model: model)
      await #expect {
        try await session.respond(to: "Hello", options: greedy)
      } throws: { error in
        "\(error)".contains("assetsUnavailable") && "\(error)".contains(reason)
      }
      #expect(session.transcript.count == 0)
    }
  }
}
