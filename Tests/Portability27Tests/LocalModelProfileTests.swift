import FMTestSupport
import Foundation
import FoundationModels
import Testing

/// A profile that runs on the local model: the same 27 code that routes to a provider's model
/// routes to ours.
struct BriefProfile: LanguageModelSession.DynamicProfile {
  let model: SystemLanguageModel

  var body: some DynamicProfile {
    Profile {
      Instructions("Answer in one short sentence.")
    }
    .model(model)
    .samplingMode(.greedy)
    .maximumResponseTokens(12)
  }
}

@Suite struct LocalModelProfileTests {
  let model = SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: 1024)

  @Test func aProfileOnTheLocalModelIsDeterministicAndKeepsItsCacheAcrossTurns() async throws {
    let first = LanguageModelSession(profile: BriefProfile(model: model))
    let second = LanguageModelSession(profile: BriefProfile(model: model))
    let a = try await first.respond(to: "What is rain?")
    let b = try await second.respond(to: "What is rain?")
    #expect(!a.content.isEmpty)
    #expect(a.content == b.content)
    #expect(a.usage.output.totalTokenCount <= 12)
    let followUp = try await first.respond(to: "And snow?")
    #expect(followUp.usage.input.cachedTokenCount >= a.usage.input.totalTokenCount)
  }
}
