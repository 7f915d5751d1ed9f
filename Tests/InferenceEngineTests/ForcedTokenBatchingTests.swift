import FMTestSupport
import Foundation
import InferenceEngine
import Synchronization
import Testing

/// A constraint for a list like `a;b;a.`: the model picks each letter, the separator after it
/// is forced (`;` between letters, `.` after the last), and `[` is forced at the start.
private final class SeparatedLetters: TokenConstraint, @unchecked Sendable {
  let model: ScriptedTokenModel
  let letters: Int
  private var text = ""

  init(model: ScriptedTokenModel, letters: Int) {
    self.model = model
    self.letters = letters
  }

  private var picked: Int { text.filter { $0 == "a" || $0 == "b" }.count }

  func forcedTokens() -> [Token] {
    if text.isEmpty { return model.tokenize("[", parseSpecial: false) }
    guard let last = text.last, last == "a" || last == "b" else { return [] }
    return model.tokenize(picked == letters ? "." : ";", parseSpecial: false)
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
  /// Forced text right after a sampled token is evaluated with it: one forward pass per
  /// sampled letter (plus the prompt's two and the opening `[`), not two.
  @Test func sampledTokenAndTheForcedTextAfterItShareOneEvaluation() async throws {
    let evaluations = Mutex(0)
    let model = ScriptedTokenModel(tokens: ["a", "b", "[", ";", "."]) { context in
      evaluations.withLock { $0 += 1 }
      return [Token(context.count % 2): 5]  // alternates between "a" and "b"
    }
    let constraint = SeparatedLetters(model: model, letters: 3)
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
