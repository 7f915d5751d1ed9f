import FMTestSupport
import Foundation
import FoundationModels
import Testing

@Generable struct Landmark {
  @Guide(description: "The landmark's name")
  var name: String
  @Guide(description: "The year it was built", .range(1000...2025))
  var year: Int
}

/// Gemma 3 270M, a model that is not ChatML, through Gemma's own template: sessions stream,
/// generate guided output and reuse the cache on the next turn. It is a base model, so its
/// answers run to their budget; each check holds at any length.
@Suite(.enabled(if: TestModels.gemma3IsPresent)) struct GemmaSessionTests {
  let model = SystemLanguageModel(
    path: URL(fileURLWithPath: TestModels.gemma3Path), contextSize: 1024, chatTemplate: try? TestModels.gemmaTemplate())
  let greedy = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16)

  @Test func streamsAndTheSecondTurnReusesTheCache() async throws {
    let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
    let stream = session.streamResponse(to: "Name a colour.", options: greedy)
    var last = ""
    for try await snapshot in stream {
      #expect(snapshot.content.hasPrefix(last))
      last = snapshot.content
    }
    let first = try await stream.collect()
    #expect(first.content == last)
    let second = try await session.respond(to: "And another?", options: greedy)
    #expect(second.usage.input.cachedTokenCount >= first.usage.input.totalTokenCount)
    #expect(session.transcript.count == 5)
    // The template's turns: the instructions open the first user turn (Gemma has no system role).
    let prompt = try #require(session.transcript.first)
    if case .instructions = prompt {} else { Issue.record("the transcript starts with its instructions") }
  }

  @Test func generatesGuidedOutput() async throws {
    let session = LanguageModelSession(model: model)
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 48)
    let landmark = try await session.respond(
      to: "A famous landmark in Paris.", generating: Landmark.self, options: options
    ).content
    #expect((1000...2025).contains(landmark.year))
  }
}
