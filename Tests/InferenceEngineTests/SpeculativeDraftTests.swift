import FMTestSupport
import Foundation
import InferenceEngine
import Testing

/// Draft tokens from the text so far (prompt lookup) in greedy guided generation.
@Suite struct SpeculativeDraftTests {
  struct Outcome {
    var text = ""
    var summary: GenerationSummary?
    var evaluations = 0
  }

  /// Eight letters after the prompt "xyxyxy"; `next` picks each from the letters so far.
  func generate(_ sampling: SamplingParameters, next: @escaping @Sendable (String) -> String) async throws -> Outcome {
    let model = ScriptedTokenModel(tokens: ["x", "y"]) { context in
      // Single-byte tokens: the prompt is 6 of them; the rest is the answer so far.
      let text = String(
        decoding: context.dropFirst(6).flatMap { $0 < 2 ? Array(["x", "y"][Int($0)].utf8) : [] }, as: UTF8.self)
      return [next(text) == "x" ? 0 : 1: 10]
    }
    var outcome = Outcome()
    let request = GenerationRequest(
      promptTokens: model.tokenize("xyxyxy", parseSpecial: false), sampling: sampling,
      constraint: Shaped(model: model, shape: "LLLLLLLL"))
    for try await event in InferenceSession(model: model).generate(request) {
      switch event {
      case .text(let piece): outcome.text += piece
      case .finished(let finished): outcome.summary = finished
      case .logProbabilities, .promptLogProbabilities: break
      }
    }
    outcome.evaluations = model.evaluations
    return outcome
  }

  /// Top-1 sampling chooses what greedy does but never drafts.
  static let topOne = SamplingParameters(strategy: .topK(1))

  @Test func confirmedDraftsSaveForwardPassesAndChangeNothing() async throws {
    let alternate: @Sendable (String) -> String = { $0.count % 2 == 0 ? "x" : "y" }
    let greedy = try await generate(.greedy, next: alternate)
    let plain = try await generate(Self.topOne, next: alternate)
    #expect(greedy.text == "xyxyxyxy")
    #expect(greedy.text == plain.text)
    #expect((greedy.summary?.usage.confirmedDraftTokens ?? 0) >= 3)
    #expect(plain.summary?.usage.draftTokens == 0)
    #expect(greedy.evaluations < plain.evaluations)
  }

  /// The model leaves the pattern the prompt shows: drafts are refused, the cache forgets them,
  /// and the output is still the model's own.
  @Test func refusedDraftsLeaveTheModelsChoices() async throws {
    // Each choice depends on how many letters came before, so a refused draft left in the
    // cache would change the ones after it.
    let leave: @Sendable (String) -> String = { text in
      let plan = Array("xyyxyyxy")
      return text.count < plan.count ? String(plan[text.count]) : "y"
    }
    let greedy = try await generate(.greedy, next: leave)
    let plain = try await generate(Self.topOne, next: leave)
    #expect(greedy.text == "xyyxyyxy")
    #expect(greedy.text == plain.text)
    let usage = try #require(greedy.summary?.usage)
    #expect(usage.draftTokens > usage.confirmedDraftTokens)
  }
}
