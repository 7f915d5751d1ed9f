import FMTestSupport
import Foundation
import InferenceEngine
import Synchronization
import Testing

@Suite struct BoundaryHealingTests {
  static let vocabulary = ["[", "[x", "x", "y", ";", ";[", ";[x", "]"]

  /// Runs one generation of `shape` with a model that prefers, after each text, the tokens
  /// `preferences` gives; returns the text, the summary and every context the model saw.
  func generate(
    shape: String, prompt: String = "go", speculation: Speculation = .lookup,
    preferences: @escaping @Sendable (String) -> [String: Float]
  ) async throws -> (
    text: String, summary: GenerationSummary?, contexts: [String], model: ScriptedTokenModel
  ) {
    let contexts = Mutex<[String]>([])
    let holder = Mutex<ScriptedTokenModel?>(nil)
    let model = ScriptedTokenModel(tokens: Self.vocabulary) { context in
      guard let model = holder.withLock({ $0 }) else { return [:] }
      // The text after the prompt (tokens of single bytes).
      let text = String(decoding: context.dropFirst(prompt.utf8.count).flatMap { model.piece(of: $0) }, as: UTF8.self)
      contexts.withLock { $0.append(text) }
      return Dictionary(
        uniqueKeysWithValues: preferences(text).map { (model.tokenize($0, parseSpecial: false)[0], $1) })
    }
    holder.withLock { $0 = model }
    let constraint = Shaped(model: model, shape: shape)
    var text = ""
    var summary: GenerationSummary?
    for try await event in InferenceSession(model: model).generate(
      GenerationRequest(
        promptTokens: model.tokenize(prompt, parseSpecial: false), constraint: constraint, speculation: speculation))
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

  /// Where the model wrote a forced token longer before (`;[x` for `;[`), the longer token is
  /// evaluated in its place the next time: the logits before it confirm the choice and the
  /// logits after it are at hand, one pass sooner than evaluating it after the choice. With
  /// speculation off the choice is made first, and the output is the same.
  @Test func aForcedTokenTheModelWroteLongerIsEvaluatedLongerNextTime() async throws {
    let preferences: @Sendable (String) -> [String: Float] = { text in
      switch text {
      case "x", "x;[x": [";[x": 10, ";[": 9]
      case "x;[x;[x": ["y": 10]
      default: ["x": 10]
      }
    }
    let presumed = try await generate(shape: "L;[L;[LL", preferences: preferences)
    #expect(presumed.text == "x;[x;[xy")
    // `x` with the forced `;[` (two logits, choosing `;[x`); `;[x` after the dropped `;[`, with
    // the forced `;[` after it; in their place `;[x` twice: before the second, its logits choose
    // it, and after it they choose `y`.
    #expect(presumed.contexts == ["", "", "x", "x;[", "x;[x", "x;[x;[x"])
    let chosenFirst = try await generate(shape: "L;[L;[LL", speculation: .off, preferences: preferences)
    #expect(chosenFirst.text == presumed.text)
    #expect(chosenFirst.summary?.tokens == presumed.summary?.tokens)
    #expect(chosenFirst.contexts == ["", "", "x", "x;[", "x;[x", "x;[x;[", "x;[x;[x"])
  }

  /// Where the model keeps the forced token this time, the presumed longer token leaves the
  /// cache and the forced one is evaluated: the output is what it is with speculation off, and
  /// every later context is the output so far.
  @Test func aPresumedLongerTokenTheModelRefusesLeavesTheCache() async throws {
    let preferences: @Sendable (String) -> [String: Float] = { text in
      switch text {
      case "x": [";[x": 10, ";[": 9]
      case "x;[x": [";[": 10, ";[x": 9]
      default: ["x": 2, "y": 1]
      }
    }
    let refused = try await generate(shape: "L;[L;[LL", preferences: preferences)
    let chosenFirst = try await generate(shape: "L;[L;[LL", speculation: .off, preferences: preferences)
    #expect(refused.text == "x;[x;[xx")
    #expect(refused.summary?.tokens == chosenFirst.summary?.tokens)
    #expect(refused.summary?.usage.forcedTokens == 1, "the second `;[` stays forced")
    // `;[x` and the presumed `;[x` (the logits before it keep `;[`, the ones after it are not
    // read); then `;[` in its place, and `x` after it.
    #expect(refused.contexts == ["", "", "x", "x;[", "x;[x", "x;[x;[x", "x;[x;[", "x;[x;[x"])
  }

  /// A draft that copies the prompt and reaches forced text the model wrote longer before
  /// holds the longer token in its place: where the model confirms the copy, it chooses the
  /// longer token from the logits before it, and the draft goes on after it.
  @Test func aDraftHoldsTheLongerTokenInPlaceOfForcedText() async throws {
    let preferences: @Sendable (String) -> [String: Float] = { text in
      switch text {
      case "x", "x;[xyx": [";[x": 10, ";[": 9]
      case "x;[x": ["y": 10]
      default: ["x": 10]
      }
    }
    let result = try await generate(shape: "L;[LLL;[LL", prompt: "gyxg", preferences: preferences)
    #expect(result.text == "x;[xyx;[xx")
    #expect(result.summary?.usage.forcedTokens == 0)
    // `y` is sampled; `x` is copied from the prompt (where `y` is followed by `x`) and `;[x`
    // stands for the forced `;[`; both confirmed, the last `x` is chosen after them: one pass.
    #expect(result.contexts.suffix(4) == ["x;[x", "x;[xy", "x;[xyx", "x;[xyx;[x"])
    #expect(result.summary?.usage.confirmedDraftTokens == 2)
  }
}
