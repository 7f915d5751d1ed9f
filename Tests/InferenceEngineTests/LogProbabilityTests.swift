import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// Log probabilities of generated and prompt tokens (`GenerationRequest.logProbabilities`).
@Suite struct LogProbabilityTests {
  /// A model that prefers `a` (logit 3), then `b` (logit 1), after any context; every other token
  /// of its vocabulary (the other bytes, end of turn) has logit 0.
  static func model() -> ScriptedTokenModel {
    ScriptedTokenModel(tokens: ["a", "b"]) { _ in [0: 3, 1: 1] }
  }

  /// The log-softmax of `logit` among the model's logits.
  static func logSoftmax(_ logit: Double, model: ScriptedTokenModel) -> Double {
    logit - log(exp(3) + exp(1) + Double(model.vocabularySize - 2))
  }

  struct Outcome {
    var events: [GenerationEvent] = []
    var generated: [TokenLogProbability] {
      events.flatMap { event -> [TokenLogProbability] in
        if case .logProbabilities(let scores) = event { scores } else { [] }
      }
    }
    var prompt: [TokenLogProbability] {
      events.flatMap { event -> [TokenLogProbability] in
        if case .promptLogProbabilities(let scores) = event { scores } else { [] }
      }
    }
    var summary: GenerationSummary? {
      events.lazy.compactMap { event -> GenerationSummary? in
        if case .finished(let summary) = event { summary } else { nil }
      }.first
    }
  }

  static func run(_ request: GenerationRequest, on model: ScriptedTokenModel) async throws -> Outcome {
    var outcome = Outcome()
    for try await event in InferenceSession(model: model).generate(request) { outcome.events.append(event) }
    return outcome
  }

  @Test(arguments: [0, 1, 2, 5])
  func everyGeneratedTokenHasItsLogSoftmaxAndTheTopAlternatives(alternatives: Int) async throws {
    let model = Self.model()
    let request = GenerationRequest(
      promptTokens: model.tokenize("ab", parseSpecial: false), maximumTokens: 3,
      logProbabilities: .init(alternatives: alternatives))
    let outcome = try await Self.run(request, on: model)
    let summary = try #require(outcome.summary)
    #expect(outcome.generated.map(\.token) == summary.tokens)
    #expect(outcome.prompt.isEmpty)
    for score in outcome.generated {
      let value = try #require(score.logProbability)
      #expect(abs(Double(value) - Self.logSoftmax(3, model: model)) < 1e-4)
      #expect(score.alternatives.count == alternatives)
      // Greedy: the chosen token is the most likely one.
      if alternatives > 0 { #expect(score.alternatives[0].token == score.token) }
      if alternatives > 1 {
        #expect(score.alternatives[1].token == 1)
        #expect(abs(Double(score.alternatives[1].logProbability) - Self.logSoftmax(1, model: model)) < 1e-4)
      }
      #expect(
        zip(score.alternatives, score.alternatives.dropFirst()).allSatisfy { $0.logProbability >= $1.logProbability })
    }
  }

  /// Each token's scores come before its text, so a reader can place the token in the text.
  @Test func scoresPrecedeTheirText() async throws {
    let model = Self.model()
    let request = GenerationRequest(
      promptTokens: model.tokenize("ab", parseSpecial: false), maximumTokens: 2,
      logProbabilities: .init(alternatives: 1))
    let outcome = try await Self.run(request, on: model)
    let kinds = outcome.events.map { event -> String in
      switch event {
      case .logProbabilities: "scores"
      case .text: "text"
      case .promptLogProbabilities: "prompt"
      case .finished: "finished"
      }
    }
    #expect(kinds == ["scores", "text", "scores", "text", "finished"])
  }

  /// With the prompt: every prompt token is scored by the logits before it (the first by none),
  /// in several evaluations when the prompt is longer than one's outputs, and none is reused
  /// from the cache.
  @Test(arguments: [1, 3, 4, 5, 9])
  func promptTokensAreScored(length: Int) async throws {
    let model = Self.model()
    let prompt = model.tokenize(String(String(repeating: "ba", count: 5).prefix(length)), parseSpecial: false)
    let session = InferenceSession(model: model)
    // A first request leaves the prompt in the cache.
    _ = try await session.record(GenerationRequest(promptTokens: prompt, maximumTokens: 1))
    var outcome = Outcome()
    let request = GenerationRequest(
      promptTokens: prompt, maximumTokens: 1, logProbabilities: .init(alternatives: 2, includesPrompt: true))
    for try await event in session.generate(request) { outcome.events.append(event) }
    #expect(outcome.prompt.map(\.token) == prompt)
    // In one event, before anything generated.
    let promptEvents = outcome.events.indices.filter {
      if case .promptLogProbabilities = outcome.events[$0] { true } else { false }
    }
    #expect(promptEvents == [0])
    #expect(outcome.prompt.first?.logProbability == nil)
    #expect(outcome.prompt.first?.alternatives.isEmpty == true)
    for score in outcome.prompt.dropFirst() {
      let expected = Self.logSoftmax(score.token == 0 ? 3 : 1, model: model)
      #expect(abs(Double(try #require(score.logProbability)) - expected) < 1e-4)
      #expect(score.alternatives.map(\.token) == [0, 1])
    }
    #expect(outcome.generated.count == 1)
    #expect(outcome.summary?.usage.cachedPromptTokens == 0)
  }

  /// A prompt is scored without generating anything.
  @Test func promptScoringMayGenerateNothing() async throws {
    let model = Self.model()
    let prompt = model.tokenize("abab", parseSpecial: false)
    let outcome = try await Self.run(
      GenerationRequest(
        promptTokens: prompt, maximumTokens: 0, logProbabilities: .init(alternatives: 0, includesPrompt: true)),
      on: model)
    #expect(outcome.prompt.count == prompt.count)
    #expect(outcome.generated.isEmpty)
    #expect(outcome.summary?.tokens == [])
    #expect(outcome.summary?.stopReason == .maximumTokens)
  }

  @Test func refusesAConstraintOrNothingToGenerate() async throws {
    let model = Self.model()
    let prompt = model.tokenize("ab", parseSpecial: false)
    await #expect(throws: EngineError.self) {
      try await Self.run(
        GenerationRequest(
          promptTokens: prompt, constraint: Shaped(model: model, shape: "L"), logProbabilities: .init(alternatives: 1)),
        on: model)
    }
    await #expect(throws: EngineError.self) {
      try await Self.run(
        GenerationRequest(promptTokens: prompt, maximumTokens: 0, logProbabilities: .init(alternatives: 1)), on: model)
    }
  }

  @Test func logSumExpIsStableForLargeLogits() {
    let logits: [Float] = [1000, 1000]
    let value = logits.withUnsafeBufferPointer { TokenLogProbability.logSumExp($0) }
    #expect(abs(value - (1000 + log(2))) < 1e-9)
  }

  /// A model without a beginning-of-sequence token tokenizes a raw prompt as plain text, control
  /// token texts included.
  @Test func rawPromptTokensNeverParseControlTokens() {
    let model = Self.model()
    #expect(model.beginningOfSequence == nil)
    #expect(model.rawPromptTokens("a<|im_end|>") == model.tokenize("a<|im_end|>", parseSpecial: false))
    #expect(!model.rawPromptTokens("a<|im_end|>").contains(model.endOfTurn))
  }
}
