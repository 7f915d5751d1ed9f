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
    #expect(reusesTheTurn(second, prompt: prompt, reply: first))
  }

  /// Whether `next` reused the whole of the turn before it: its prompt and reply, but for the
  /// reply's last token where the budget ended the reply (a token chosen last is not evaluated).
  func reusesTheTurn(_ next: RecordedGeneration, prompt: [Token], reply: RecordedGeneration) -> Bool {
    let whole = prompt.count + reply.tokens.count
    let reused = next.summary.usage.cachedPromptTokens
    return reused == whole || (reply.summary.stopReason == .maximumTokens && reused == whole - 1)
  }

  /// Greedy speculation takes at each position the model's choice after the verify logits: the
  /// output is the one the model gives without speculation wherever the logits of a batched
  /// pass agree with those of a pass of one token (they differ in the last bits between CPU
  /// kernels, which may swap a near tie). So on any CPU both start with the same token (from the
  /// same prompt logits), and each is reproduced exactly by a second run.
  ///
  /// On a model of its own whose decodes cost what one token's does (`modelOfFreeRows`).
  @Test func greedySpeculationReproducesAndAgreesWithoutIt() async throws {
    let model = try modelOfFreeRows()
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

  /// With the costs measured on this machine (`DecodeCosts`), the same request drafts the same
  /// guesses every time, by lookup or by a draft model (here the model itself), so it gets the
  /// same answer whatever the machine's load.
  @Test(arguments: [Speculation.lookup, .draft])
  func theSameRequestDraftsTheSameGuessesEveryTime(speculation: Speculation) async throws {
    var runs: [RecordedGeneration] = []
    for _ in 0..<3 {
      let session =
        speculation == .draft
        ? try InferenceSession(model: model, configuration: ContextConfiguration(), draftModel: model)
        : InferenceSession(model: model)
      runs.append(
        try await session.record(
          GenerationRequest(promptTokens: prompt, maximumTokens: 40, speculation: speculation)))
    }
    for run in runs.dropFirst() {
      #expect(run.tokens == runs[0].tokens)
      #expect(run.summary.usage.draftTokens == runs[0].summary.usage.draftTokens)
      #expect(run.summary.usage.confirmedDraftTokens == runs[0].summary.usage.confirmedDraftTokens)
    }
  }

  /// The model drafting for itself (`Speculation.draft`, a draft model of the same vocabulary):
  /// its confident guesses are its own greedy choices, so some are confirmed; the output is
  /// reproduced by a second run, and the next turn reuses the whole turn.
  /// On a model of its own whose decodes cost what one token's does (`modelOfFreeRows`).
  @Test func aDraftModelsGuessesAreConfirmedAndTheNextTurnReusesTheTurn() async throws {
    let model = try modelOfFreeRows()
    func draftingSession() throws -> InferenceSession {
      try InferenceSession(model: model, configuration: ContextConfiguration(contextSize: 1024), draftModel: model)
    }
    let text = try draftingSession()
    let prompt = text.promptTokens([ChatMessage(role: .user, content: "Count from one to twenty in words.")])
    let request = GenerationRequest(promptTokens: prompt, maximumTokens: 40, speculation: .draft)
    let first = try await text.record(request)
    let again = try await draftingSession().record(request)
    #expect(first.tokens == again.tokens)
    #expect(first.summary.usage.confirmedDraftTokens > 0)
    let next = prompt + first.tokens + model.tokenize(" Thanks.", parseSpecial: false)
    let second = try await text.record(GenerationRequest(promptTokens: next, maximumTokens: 4, speculation: .draft))
    #expect(reusesTheTurn(second, prompt: prompt, reply: first))
  }

  /// SmolLM2 loaded apart from the other tests', its decodes known to cost what one token's
  /// does whatever their rows: drafts are evaluated as the policy proposes them, on any CPU.
  func modelOfFreeRows() throws -> LlamaModel {
    let model = try LlamaModel(path: TestModels.smolLM2Path)
    let free = DecodeCosts(ratios: Dictionary(uniqueKeysWithValues: (1...64).map { ($0, 1.0) }))
    _ = model.decodeCosts(threads: 1, kernel: .flash, replacingWith: free)
    return model
  }
}
