import FMTestSupport
import Foundation
import FoundationModels
import Testing

/// Sessions on a batched model (`SystemLanguageModel.batched(slots:)`, the switch the server
/// uses) on the real small model: constrained and free requests decoded together in one
/// context. Batched logits may differ from a lone sequence's, so no particular text is expected.
@Suite struct BatchedSessionTests {
  let model = SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: 1024)
    .batched(slots: 4, tokenBudget: 128)

  /// Two guided and two free requests at once: the guided ones give JSON that parses and
  /// decodes into the type, the free ones text within their budget, and the scheduler put
  /// several sequences into one decode.
  @Test func constrainedAndFreeRequestsMixedInOneBatch() async throws {
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 60)
    let free = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 20)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for prompt in ["A famous novel.", "A book about the sea."] {
        group.addTask {
          let response = try await LanguageModelSession(model: model).respond(
            to: prompt, generating: Book.self, options: options)
          let json = try JSONSerialization.jsonObject(with: Data(response.rawContent.jsonString.utf8))
          #expect(json is [String: Any])
          #expect((1450...2100).contains(response.content.year))
        }
      }
      for prompt in ["Name three colours.", "What is a gale?"] {
        group.addTask {
          let response = try await LanguageModelSession(model: model).respond(to: prompt, options: free)
          #expect(!response.content.isEmpty)
          #expect(response.usage.output.totalTokenCount <= 20)
        }
      }
      try await group.waitForAll()
    }
    let batched = try #require(model.batchedModel)
    #expect(batched.statistics.widestDecode >= 2, "\(batched.statistics)")
    #expect(batched.statistics.decodes < batched.statistics.evaluations)
    #expect(batched.busySlots == 0)
  }

  /// A conversation's second turn on a batched model finds its first turn in a slot.
  @Test func aSessionsSecondTurnReusesItsSlot() async throws {
    let session = LanguageModelSession(model: model, instructions: "Answer in one sentence.")
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16)
    let first = try await session.respond(to: "What is the sea?", options: options)
    let second = try await session.respond(to: "And a lake?", options: options)
    #expect(second.usage.input.cachedTokenCount >= first.usage.input.totalTokenCount)
  }
}
