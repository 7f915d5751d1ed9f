import FMTestSupport
import Foundation
import InferenceEngine
import Synchronization
import Testing

@Suite struct BoundaryHealingTests {
  static let vocabulary = ["[", "[x", "x", "y", ";", ";[", ";[x", "]"]

  /// Runs one generation of `shape` with a model that prefers, after each text, the tokens
  /// `preferences` gives; returns the text, the summary and every context the model saw.
  func generate(shape: String, preferences: @escaping @Sendable (String) -> [String: Float]) async throws -> (
    text: String, summary: GenerationSummary?, contexts: [String], model: ScriptedTokenModel
  ) {
    let contexts = Mutex<[String]>([])
    let holder = Mutex<ScriptedTokenModel?>(nil)
    let model = ScriptedTokenModel(tokens: Self.vocabulary) { context in
      guard let model = holder.withLock({ $0 }) else { return [:] }
      // The text after the prompt ("go", tokens of single bytes).
      let text = String(decoding: context.dropFirst(2).flatMap { model.piece(of: $0) }, as: UTF8.self)
      contexts.withLock { $0.append(text) }
      return Dictionary(
        uniqueKeysWithValues: preferences(text).map { (model.tokenize($0, parseSpecial: false)[0], $1) })
    }
    holder.withLock { $0 = model }
    let constraint = Shaped(model: model, shape: shape)
    var text = ""
    var summary: GenerationSummary?
    for try await event in InferenceSession(model: model).generate(
      GenerationRequest(promptTokens: model.tokenize("go", parseSpecial: false), constraint: constraint))
    {
      switch event {
      case .text(let piece): text += piece
      case .finished(let finished): summary = finished
      case .logProbabilities, .promptLogProbabilities: break
      }
    }
    return (text, summary, contexts.withLock { $0 }, model)
  }

  /// The model writes `[x` and `;[x` as single tokens where `[` and `;[` were forced; the
  /// forced token it replaced leaves the cache, so every later context is the output so far.
  @Test func theModelsLongerTokenReplacesTheLastForcedOne() async throws {
    let (text, summary, contexts, _) = try await generate(shape: "[L;[LL]") { text in
      switch text {
      case "": ["[x": 10, "[": 9]
      case "[x": [";[x": 10, ";[": 9, "x": 1]
      default: ["y": 10]
      }
    }
    #expect(text == "[x;[xy]")
    let model = ScriptedTokenModel(tokens: Self.vocabulary) { _ in [:] }
    #expect(summary?.tokens == ["[x", ";[x", "y", "]"].map { model.tokenize($0, parseSpecial: false)[0] })
    #expect(summary?.usage.forcedTokens == 1)
    // The prompt's body, then its last token (whose logits chose `[x` over the forced `[`); `[x`
    // with the forced `;[`, two logits, the first choosing `;[x`; `;[x` after the dropped `;[`;
    // `y]` ends it unevaluated.
    #expect(contexts == ["", "", "[x", "[x;[", "[x;[x"])
  }

  /// When the model prefers the forced token itself, the output and the number of
  /// evaluations are what they would be without healing.
  @Test func theForcedTokenStaysWhenTheModelPrefersIt() async throws {
    let (text, summary, contexts, _) = try await generate(shape: "[L;[L]") { text in
      text.hasSuffix("[") ? ["x": 10] : ["[": 10, ";[": 10, "[x": 1, ";[x": 1]
    }
    #expect(text == "[x;[x]")
    #expect(summary?.usage.forcedTokens == 3)
    #expect(summary?.stopReason == .constraintComplete)
    // The prompt (its body, then its last token), `[`, then `x;[` in one batch (two logits);
    // `x]` ends the output unevaluated.
    #expect(contexts == ["", "", "[", "[x", "[x;["])
  }

  /// Where few tokens may follow, the generator asks the backend for their logits only (the
  /// scripted backend leaves every other logit at -infinity), and the output is unchanged.
  @Test func fewAllowedTokensAreTheOnlyLogitsAskedFor() async throws {
    let (text, _, _, model) = try await generate(shape: "[L;[L]") { text in
      text.hasSuffix("[") ? ["y": 10] : ["[": 10, ";[": 10]
    }
    #expect(text == "[y;[y]")
    // The prompt's body (no logits are read), its last token (only `[` can start), after `[` and
    // after `y;[`: each time few tokens could follow.
    #expect(model.candidateEvaluations == 4)
  }
}
