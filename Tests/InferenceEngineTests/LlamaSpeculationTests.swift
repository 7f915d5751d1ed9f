import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// Prompt-lookup speculation on the real small model (`smollm2-135m`).
@Suite struct LlamaSpeculationTests {
  let model: LlamaModel

  init() async throws {
    model = try await TestModels.smolLM2()
  }

  /// A prompt the answer copies from, so that lookup finds drafts.
  var prompt: [Token] {
    let text = "The quick brown fox jumps over the lazy dog near the river bank at dawn."
    let session = InferenceSession(model: model)
    return session.promptTokens([
      ChatMessage(role: .user, content: "Repeat this sentence three times, exactly:\n\(text)")
    ])
  }

  /// Whatever the drafts, the cache after a turn holds the prompt and the tokens generated (the
  /// refused drafts rolled back), so the next turn reuses all of it, as without speculation.
  @Test(arguments: [Speculation.lookup, .off])
  func theNextTurnReusesTheWholeTurnWithAndWithoutSpeculation(speculation: Speculation) async throws {
    let session = InferenceSession(model: model, configuration: ContextConfiguration(contextSize: 1024))
    let first = try await session.record(
      GenerationRequest(promptTokens: prompt, maximumTokens: 48, speculation: speculation))
    if speculation == .off { #expect(first.summary.usage.draftTokens == 0) }
    #expect(first.summary.usage.confirmedDraftTokens <= first.summary.usage.draftTokens)
    let next = prompt + first.tokens + model.tokenize(" Thanks.", parseSpecial: false)
    let second = try await session.record(GenerationRequest(promptTokens: next, maximumTokens: 4))
    #expect(second.summary.usage.cachedPromptTokens == prompt.count + first.tokens.count)
  }

  /// Greedy speculation takes at each position the model's choice after the verify logits: the
  /// output is the one the model gives without speculation wherever the logits of a batched
  /// pass agree with those of a pass of one token (they differ in the last bits between CPU
  /// kernels, which may swap a near tie). So on any CPU both start with the same token (from the
  /// same prompt logits), and each is reproduced exactly by a second run.
  @Test func greedySpeculationReproducesAndAgreesWithoutIt() async throws {
    func run(_ speculation: Speculation) async throws -> RecordedGeneration {
      try await InferenceSession(model: model).record(
        GenerationRequest(promptTokens: prompt, maximumTokens: 40, speculation: speculation))
    }
    let drafted = try await run(.lookup)
    let again = try await run(.lookup)
    let plain = try await run(.off)
    #expect(drafted.tokens == again.tokens)
    #expect(drafted.summary.usage.draftTokens > 0, "the answer repeats the prompt: lookup finds drafts")
    #expect(drafted.tokens.first == plain.tokens.first, "the first token comes from the same prompt logits")
  }
}
