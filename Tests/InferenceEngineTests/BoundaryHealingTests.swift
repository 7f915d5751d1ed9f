import FMTestSupport
import Foundation
import InferenceEngine
import Synchronization
import Testing

/// A constraint for text of a fixed shape: `nil` in `shape` is a letter the model picks (x or
/// y), every other character is forced.
private final class Shaped: TokenConstraint, @unchecked Sendable {
  let model: ScriptedTokenModel
  let shape: [Character?]
  private(set) var text = ""

  init(model: ScriptedTokenModel, shape: String) {
    self.model = model
    self.shape = shape.map { $0 == "L" ? nil : $0 }
  }

  private func piece(_ token: Token) -> String { String(decoding: model.piece(of: token), as: UTF8.self) }

  /// Whether `more` may follow the text so far.
  private func fits(_ more: Substring) -> Bool {
    guard text.count + more.count <= shape.count else { return false }
    return more.enumerated().allSatisfy { offset, character in
      shape[text.count + offset].map { $0 == character } ?? (character == "x" || character == "y")
    }
  }

  func forcedTokens() -> [Token] {
    let forced = String(shape.dropFirst(text.count).prefix { $0 != nil }.compactMap { $0 })
    return forced.isEmpty ? [] : model.tokenize(forced, parseSpecial: false)
  }

  func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    for index in logits.indices where !fits(Substring(piece(Token(index)))) || piece(Token(index)).isEmpty {
      logits[index] = -.infinity
    }
  }

  func accept(_ token: Token) throws {
    guard fits(Substring(piece(token))) else { throw EngineError(.invalidRequest, "not allowed") }
    text += piece(token)
  }

  func allowedTokens(limit: Int) -> [Token]? {
    let allowed = (0..<model.vocabularySize).map { Token($0) }.filter {
      !piece($0).isEmpty && fits(Substring(piece($0)))
    }
    return allowed.count <= limit ? allowed : nil
  }

  func extensions(of token: Token) -> [Token] {
    let prefix = piece(token)
    return (0..<model.vocabularySize).map { Token($0) }.filter { other in
      let full = piece(other)
      return full.count > prefix.count && full.hasPrefix(prefix) && fits(full.dropFirst(prefix.count))
    }
  }

  func acceptExtension(of token: Token, by longer: Token) throws {
    guard extensions(of: token).contains(longer) else { throw EngineError(.invalidRequest, "not an extension") }
    text += piece(longer).dropFirst(piece(token).count)
  }

  var isComplete: Bool { text.count == shape.count }
  var mustEnd: Bool { isComplete }
  func tokensToClose() -> [Token] { [] }
}

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
    // The prompt (whose logits chose `[x` over the forced `[`); `[x` with the forced `;[`, two
    // logits, the first choosing `;[x`; `;[x` after the dropped `;[`; `y]` ends it unevaluated.
    #expect(contexts == ["", "[x", "[x;[", "[x;[x"])
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
    // The prompt, `[`, then `x;[` in one batch (two logits); `x]` ends the output unevaluated.
    #expect(contexts == ["", "[", "[x", "[x;["])
  }

  /// Where few tokens may follow, the generator asks the backend for their logits only (the
  /// scripted backend leaves every other logit at -infinity), and the output is unchanged.
  @Test func fewAllowedTokensAreTheOnlyLogitsAskedFor() async throws {
    let (text, _, _, model) = try await generate(shape: "[L;[L]") { text in
      text.hasSuffix("[") ? ["y": 10] : ["[": 10, ";[": 10]
    }
    #expect(text == "[y;[y]")
    // After `[` and after `x;[`: each time only x, y (and the extensions) could follow.
    #expect(model.candidateEvaluations == 2)
  }
}
