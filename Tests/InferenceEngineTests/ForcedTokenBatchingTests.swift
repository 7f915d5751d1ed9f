import FMTestSupport
import Foundation
import InferenceEngine
import Synchronization
import Testing

/// A constraint whose output ends with `.`: where `forced` gives text for the output so far,
/// that text is forced; elsewhere the model picks a letter, `a` or `b`.
private final class Letters: TokenConstraint, @unchecked Sendable {
  let model: ScriptedTokenModel
  let forced: @Sendable (String) -> String
  private var text = ""

  init(model: ScriptedTokenModel, forced: @escaping @Sendable (String) -> String) {
    self.model = model
    self.forced = forced
  }

  /// A list like `[a;b;a.`: `[` forced at the start, each letter picked, the separator after it
  /// forced (`;` between letters, `.` after the last).
  static func separated(_ letters: Int, model: ScriptedTokenModel) -> Letters {
    Letters(model: model) { text in
      if text.isEmpty { return "[" }
      guard let last = text.last, last == "a" || last == "b" else { return "" }
      return text.filter { $0 == "a" || $0 == "b" }.count == letters ? "." : ";"
    }
  }

  /// `[(x).`: two forced runs one after the other (`[`, then `(`, as a call's marker and then
  /// its name), a letter picked, then the forced `).`.
  static func twoForcedRuns(model: ScriptedTokenModel) -> Letters {
    Letters(model: model) { text in
      switch text {
      case "": "["
      case "[": "("
      case "[(": ""
      default: text.hasSuffix(".") ? "" : ")."
      }
    }
  }

  func forcedTokens() -> [Token] {
    let text = forced(text)
    return text.isEmpty ? [] : model.tokenize(text, parseSpecial: false)
  }

  func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    let allowed = Set(model.tokenize("ab", parseSpecial: false))
    for index in logits.indices where !allowed.contains(Token(index)) { logits[index] = -.infinity }
  }

  func accept(_ token: Token) throws { text += String(decoding: model.piece(of: token), as: UTF8.self) }
  var isComplete: Bool { text.hasSuffix(".") }
  var mustEnd: Bool { isComplete }
  func tokensToClose() -> [Token] { [] }
}

@Suite struct ForcedTokenBatchingTests {
  /// Forced runs that follow each other are one batch: `[` and `(` are evaluated together (a
  /// call's marker, name and arguments' opening cost one decode, and are told together).
  @Test func forcedRunsOneAfterAnotherShareOneEvaluation() async throws {
    let evaluations = Mutex(0)
    let model = ScriptedTokenModel(tokens: ["a", "b", "[", "(", ")", "."]) { context in
      evaluations.withLock { $0 += 1 }
      return [Token(0): 5]
    }
    let session = InferenceSession(model: model)
    var text = ""
    for try await event in session.generate(
      GenerationRequest(
        promptTokens: model.tokenize("go", parseSpecial: false), constraint: Letters.twoForcedRuns(model: model))
    ) {
      if case .text(let piece) = event { text += piece }
    }
    #expect(text == "[(a).")
    // The prompt's two evaluations, then "[(" in one; "a)." ends the output unevaluated.
    #expect(evaluations.withLock { $0 } == 3)
  }

  /// Forced text right after a sampled token is evaluated with it: one forward pass per
  /// sampled letter (plus the prompt's two and the opening `[`), not two.
  @Test func sampledTokenAndTheForcedTextAfterItShareOneEvaluation() async throws {
    let evaluations = Mutex(0)
    let model = ScriptedTokenModel(tokens: ["a", "b", "[", ";", "."]) { context in
      evaluations.withLock { $0 += 1 }
      return [Token(context.count % 2): 5]  // alternates between "a" and "b"
    }
    let constraint = Letters.separated(3, model: model)
    let session = InferenceSession(model: model)
    var text = ""
    var summary: GenerationSummary?
    for try await event in session.generate(
      GenerationRequest(promptTokens: model.tokenize("go", parseSpecial: false), constraint: constraint))
    {
      switch event {
      case .text(let piece): text += piece
      case .finished(let finished): summary = finished
      case .logProbabilities, .promptLogProbabilities: break
      }
    }
    #expect(text.count == 7 && text.hasPrefix("[") && text.hasSuffix("."))
    #expect(summary?.stopReason == .constraintComplete)
    #expect(summary?.usage.forcedTokens == 4)
    // The prompt (its body, then its last token), "[", then "x;" and "x;" — the last letter
    // and "." end the output unevaluated.
    #expect(evaluations.withLock { $0 } == 5)
  }
}
