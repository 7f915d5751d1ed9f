import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// A list of letters that must be closed: `[` is forced at the start, then the model writes
/// `x` or `y` until it writes `]`, the one token that closes the output.
private final class OpenList: TokenConstraint, @unchecked Sendable {
  let model: ScriptedTokenModel
  private var text = ""

  init(model: ScriptedTokenModel) {
    self.model = model
  }

  private func token(_ text: String) -> Token { model.tokenize(text, parseSpecial: false)[0] }

  func forcedTokens() -> [Token] { text.isEmpty ? [token("[")] : [] }

  func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    let allowed = isComplete ? [] : ["x", "y", "]"].map(token)
    for index in logits.indices where !allowed.contains(Token(index)) { logits[index] = -.infinity }
  }

  func accept(_ token: Token) throws { text += String(decoding: model.piece(of: token), as: UTF8.self) }
  var isComplete: Bool { text.hasSuffix("]") }
  var mustEnd: Bool { isComplete }
  func tokensToClose() -> [Token] { isComplete ? [] : [token("]")] }
}

/// A list of pairs that must be closed: `[` is forced at the start, then the model writes `x`
/// or `]`; after each `x` the pair's rest, `;` and `y`, is forced. So a free choice (`x`) brings
/// forced text that closing the list before it did not need. Snapshots let the steps look ahead.
private final class PairList: TokenConstraint, @unchecked Sendable {
  let model: ScriptedTokenModel
  private var text = ""

  init(model: ScriptedTokenModel) {
    self.model = model
  }

  private func token(_ text: String) -> Token { model.tokenize(text, parseSpecial: false)[0] }

  func forcedTokens() -> [Token] {
    if text.isEmpty { return [token("[")] }
    return text.hasSuffix("x") ? [token(";"), token("y")] : []
  }

  func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    let allowed = isComplete ? [] : ["x", "]"].map(token)
    for index in logits.indices where !allowed.contains(Token(index)) { logits[index] = -.infinity }
  }

  func accept(_ token: Token) throws { text += String(decoding: model.piece(of: token), as: UTF8.self) }
  var isComplete: Bool { text.hasSuffix("]") }
  var mustEnd: Bool { isComplete }
  func tokensToClose() -> [Token] {
    if isComplete { return [] }
    return (text.hasSuffix("x") ? [token(";"), token("y")] : []) + [token("]")]
  }
  func snapshot() -> (any Sendable)? { text }
  func restore(_ snapshot: any Sendable) { text = snapshot as? String ?? text }
}

/// The decode steps driven by hand: each evaluation is answered with logits that prefer
/// the tokens a test names, so what the steps ask for can be checked one step at a time.
@Suite struct DecodeStepsTests {
  let model = ScriptedTokenModel(tokens: ["[", "[x", "x", "y", ";", ";[", ";[x", "]"]) { _ in [:] }

  func tokens(_ text: String) -> [Token] { model.tokenize(text, parseSpecial: false) }

  func decodeSteps(prompt: [Token], constraint: (any TokenConstraint)? = nil, maximumTokens: Int? = nil) throws
    -> DecodeSteps
  {
    let request = GenerationRequest(promptTokens: prompt, maximumTokens: maximumTokens, constraint: constraint)
    return try DecodeSteps(request: request, model: model, contextLength: 64)
  }

  /// The step after an evaluation whose outputs prefer `preferred`, one token per output.
  func next(_ steps: inout DecodeSteps, preferring preferred: [String], cancellation: CancellationFlag = .init())
    throws -> DecodeStep
  {
    let buffers = preferred.map { text in
      let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: model.vocabularySize)
      buffer.update(repeating: 0)
      buffer[Int(tokens(text)[0])] = 10
      return buffer
    }
    defer { buffers.forEach { $0.deallocate() } }
    return try steps.next(after: buffers.map { UnsafeBufferPointer($0) }, cancellation: cancellation)
  }

  /// The steps' start, with the prompt's body evaluated: the step that evaluates its last token.
  func startAtPromptEnd(_ steps: inout DecodeSteps, cachedTokens: [Token] = []) throws -> DecodeStep {
    let body = steps.start(cachedTokens: cachedTokens)
    guard case .evaluate(_, _, let candidates) = body.action, candidates == [[]] else { return body }
    // The body's logits are never read.
    return try next(&steps, preferring: [";"])
  }

  /// Forced text is taken without a model call and evaluated in one batch; forced text that
  /// ends the output is never evaluated.
  @Test func forcedTokensAreTakenTogetherAndEvaluatedInOneBatch() throws {
    let prompt = tokens("go")
    var steps = try decodeSteps(prompt: prompt, constraint: Shaped(model: model, shape: "{\"a\":L}"))
    // The prompt but its last token, with no logits asked for; then the last token alone.
    let body = steps.start(cachedTokens: [])
    #expect(
      body
        == DecodeStep(
          text: [], cacheLength: 0, action: .evaluate(tokens("g"), outputs: 1, candidates: [[]]), endsPromptPart: true))
    let start = try next(&steps, preferring: [";"])
    // Only `{` can start the output: its logit is the only one asked for.
    #expect(
      start
        == DecodeStep(
          text: [], cacheLength: 1, action: .evaluate(tokens("o"), outputs: 1, candidates: [tokens("{")]),
          endsPromptPart: true))

    let forced = try next(&steps, preferring: ["x"])
    #expect(forced.text.joined() == "{\"a\":")
    #expect(forced.cacheLength == prompt.count)
    #expect(forced.action == .evaluate(tokens("{\"a\":"), outputs: 1, candidates: [tokens("xy")]))

    let end = try next(&steps, preferring: ["y"])
    #expect(end.text.joined() == "y}")
    #expect(end.cacheLength == prompt.count + 5, "the sampled y and the forced } were never evaluated")
    #expect(end.action == .finish(.constraintComplete))
    #expect(steps.usage.forcedTokens == 6)
    #expect(steps.usage.generatedTokens == 7)
  }

  /// When only the tokens that close the output fit the budget, they are taken: the output
  /// ends complete at the budget rather than cut off.
  @Test func theBudgetsLastTokensCloseTheConstraint() throws {
    var steps = try decodeSteps(prompt: tokens("go"), constraint: OpenList(model: model), maximumTokens: 4)
    var step = try startAtPromptEnd(&steps)
    var evaluated: [[Token]] = []
    while case .evaluate(let batch, _, _) = step.action {
      evaluated.append(batch)
      step = try next(&steps, preferring: ["x"])
    }
    #expect(step.action == .finish(.constraintComplete))
    #expect(steps.generated == ["[", "x", "x", "]"].flatMap(tokens))
    #expect(evaluated == [tokens("o"), tokens("["), tokens("x"), tokens("x")])
  }

  /// Near the end of the budget a choice that brings forced text is taken only when the output
  /// can still be closed after that text: with 3 tokens left after `[`, `x` and its forced `;y`
  /// would use all three and leave the list open, so the list is closed instead.
  @Test func aChoiceWhoseForcedTextWouldLeaveTheOutputOpenClosesItInstead() throws {
    var steps = try decodeSteps(prompt: tokens("go"), constraint: PairList(model: model), maximumTokens: 4)
    var step = try startAtPromptEnd(&steps)
    while case .evaluate = step.action {
      step = try next(&steps, preferring: ["x"])
    }
    #expect(step.action == .finish(.constraintComplete))
    #expect(steps.generated == ["[", "]"].flatMap(tokens))
    // With room for the pair and the closing, the model's `x` is taken; then the budget closes.
    var roomy = try decodeSteps(prompt: tokens("go"), constraint: PairList(model: model), maximumTokens: 5)
    step = try startAtPromptEnd(&roomy)
    while case .evaluate = step.action {
      step = try next(&roomy, preferring: ["x"])
    }
    #expect(step.action == .finish(.constraintComplete))
    #expect(roomy.generated == ["[", "x", ";", "y", "]"].flatMap(tokens))
  }

  /// A draft the model refuses leaves the cache: the next step cuts it back to the prompt and
  /// the tokens taken, and goes on from the model's own choice.
  @Test func aRefusedDraftIsCutFromTheCache() throws {
    let prompt = tokens("xyxyxy")
    var steps = try decodeSteps(prompt: prompt, constraint: Shaped(model: model, shape: "LLLLLLLL"))
    _ = try startAtPromptEnd(&steps)
    // x, then "yx" drafted from the prompt's pattern: three tokens, a logit after each.
    let drafted = try next(&steps, preferring: ["x"])
    #expect(drafted.cacheLength == prompt.count)
    #expect(
      drafted.action == .evaluate(tokens("xyx"), outputs: 3, candidates: Array(repeating: tokens("xy"), count: 3)))

    // The model confirms y and refuses the x after it, preferring y.
    let after = try next(&steps, preferring: ["y", "y", "x"])
    #expect(after.cacheLength == prompt.count + 2, "the refused x left the cache")
    #expect(after.text.joined() == "yy")
    guard case .evaluate(let batch, _, _) = after.action else {
      Issue.record("expected an evaluation, not \(after.action)")
      return
    }
    #expect(batch.first == tokens("y")[0], "the model's own choice comes next")
    #expect(steps.generated == tokens("xyy"))
    #expect(steps.usage.draftTokens == 2)
    #expect(steps.usage.confirmedDraftTokens == 1)
  }

  /// The driver's draft limit bounds the drafts: one of them, or none at all, where three
  /// would be proposed (`TokenBackend.draftTokenLimit`).
  @Test func theDraftLimitBoundsTheDrafts() throws {
    for (limit, expected) in [(1, "xy"), (0, "x")] {
      var steps = try decodeSteps(prompt: tokens("xyxyxy"), constraint: Shaped(model: model, shape: "LLLLLLLL"))
      _ = try startAtPromptEnd(&steps)
      steps.draftLimit = limit
      let step = try next(&steps, preferring: ["x"])
      let outputs = expected.count
      #expect(
        step.action
          == .evaluate(tokens(expected), outputs: outputs, candidates: Array(repeating: tokens("xy"), count: outputs)))
    }
  }

  /// Forced text after a guess joins the draft as certain, and guessing goes on after it: one
  /// evaluation holds a guessed letter, the forced `;` and the next guess, and once the model
  /// confirms the guesses, the `;` is taken as forced without a choice of its own.
  @Test func forcedTextJoinsTheDraftBetweenGuesses() throws {
    let prompt = tokens("xy;xy;xy;")
    var steps = try decodeSteps(prompt: prompt, constraint: Shaped(model: model, shape: "LL;LL;LL;"))
    _ = try startAtPromptEnd(&steps)
    let drafted = try next(&steps, preferring: ["x"])
    guard case .evaluate(let batch, let outputs, _) = drafted.action else {
      Issue.record("expected an evaluation, not \(drafted.action)")
      return
    }
    #expect(batch == tokens("xy;x"))
    #expect(outputs == 4)
    // y confirmed, `;` certain, x confirmed; then the model's own y, and the forced `;` after it.
    let after = try next(&steps, preferring: ["y", "x", "x", "y"])
    #expect(after.text.joined() == "y;xy;")
    #expect(steps.generated == tokens("xy;xy;"))
    #expect(steps.usage.draftTokens == 2, "the forced `;` is no guess")
    #expect(steps.usage.confirmedDraftTokens == 2)
    #expect(steps.usage.forcedTokens == 2)
  }

  /// In decodes other sequences share, a guided value's short match drafts nothing (only a
  /// copied span, `DraftPolicy.copyMatch` tokens or more, would).
  @Test func sharedDecodesDraftCopiedSpansOnly() throws {
    let prompt = tokens("xy;xy;xy;")
    var steps = try decodeSteps(prompt: prompt, constraint: Shaped(model: model, shape: "LL;LL;LL;"))
    _ = try startAtPromptEnd(&steps)
    steps.sharedDecodes = true
    let step = try next(&steps, preferring: ["x"])
    #expect(step.action == .evaluate(tokens("x"), outputs: 1, candidates: [tokens("xy")]))
  }

  /// The logits before a forced token, the first of two outputs of its batch, may choose a
  /// longer token: it replaces the forced one, which leaves the cache.
  @Test func aHealedForcedTokenLeavesTheCache() throws {
    let prompt = tokens("go")
    var steps = try decodeSteps(prompt: prompt, constraint: Shaped(model: model, shape: "L;[L"))
    _ = try startAtPromptEnd(&steps)
    let healing = try next(&steps, preferring: ["x"])
    #expect(
      healing.action == .evaluate(tokens("x;["), outputs: 2, candidates: [tokens(";[") + tokens(";[x"), tokens("xy")]))

    let end = try next(&steps, preferring: [";[x", "y"])
    #expect(end.action == .finish(.constraintComplete))
    #expect(end.cacheLength == prompt.count + 1, "only the x stays: the forced ;[ gave way to ;[x")
    #expect(end.text.joined() == "x")
    #expect(steps.generated == tokens("x") + tokens(";[x"))
    #expect(steps.usage.forcedTokens == 0)
  }

  /// The prompt evaluates after the prefix the cache holds, and at least its last token; a
  /// session's own continuation (past the cache's prompt parts) is one part.
  @Test func theCachedPrefixIsNotEvaluatedAgain() throws {
    let prompt = tokens("xyxy")
    var steps = try decodeSteps(prompt: prompt)
    #expect(steps.start(cachedTokens: tokens("xyx;")).action == .evaluate(tokens("y"), outputs: 1, candidates: nil))
    #expect(steps.usage.cachedPromptTokens == 3)
    var again = try decodeSteps(prompt: prompt)
    let whole = again.start(cachedTokens: prompt + tokens("x"))
    #expect(whole.cacheLength == 3 && whole.action == .evaluate(tokens("y"), outputs: 1, candidates: nil))
    var shorter = try decodeSteps(prompt: prompt)
    let rest = shorter.start(cachedTokens: tokens("xy;"))
    #expect(rest.action == .evaluate(tokens("xy"), outputs: 1, candidates: nil) && !rest.endsPromptPart)
  }

  /// A fresh cache takes the prompt part by part: to each boundary, then all but the last
  /// token, then the last.
  @Test func aFreshPromptIsEvaluatedPartByPart() {
    let plan = DecodeSteps.promptPlan(
      prompt: Array(0..<10), boundaries: [4], cachedTokens: [], cachedBoundaries: PartBoundaries())
    #expect(plan.reused == 0)
    #expect(plan.parts.map(\.range) == [0..<4, 4..<9, 9..<10])
    #expect(plan.parts.allSatisfy { $0.endsPart })
  }

  /// A kept cache of another prompt: its parts that this prompt shares, boundaries and all,
  /// are reused; the rest is evaluated as a fresh cache would evaluate it.
  @Test func sharedPartsOfAKeptCacheAreReused() {
    var kept = PartBoundaries()
    for position in [4, 9, 10] { kept.mark(position) }
    let cached: [Token] = Array(0..<10)
    let other: [Token] = Array(0..<6) + [40, 41, 42, 43]
    let shared = DecodeSteps.promptPlan(prompt: other, boundaries: [4], cachedTokens: cached, cachedBoundaries: kept)
    #expect(shared.reused == 4)
    #expect(shared.parts.map(\.range) == [4..<9, 9..<10])
    // The same prompt again: only its last token is evaluated, alone, as the first time.
    let same = DecodeSteps.promptPlan(prompt: cached, boundaries: [4], cachedTokens: cached, cachedBoundaries: kept)
    #expect(same.reused == 9 && same.parts.map(\.range) == [9..<10])
    // Parts that end elsewhere were evaluated in other batches: nothing is reused.
    let shifted = DecodeSteps.promptPlan(prompt: other, boundaries: [5], cachedTokens: cached, cachedBoundaries: kept)
    #expect(shifted.reused == 0 && shifted.parts.map(\.range) == [0..<5, 5..<9, 9..<10])
  }

  /// Where parts are not worth a decode each (a batched backend), a fresh prompt is one
  /// part, whose end is marked; a kept cache gives everything it shares, boundaries or not.
  @Test func withoutExactPartsAPromptIsOnePart() {
    let fresh = DecodeSteps.promptPlan(
      prompt: Array(0..<10), boundaries: [4], cachedTokens: [], cachedBoundaries: PartBoundaries(), exactParts: false)
    #expect(fresh.reused == 0)
    #expect(fresh.parts == [DecodeSteps.PromptPart(range: 0..<10, endsPart: true)])
    var kept = PartBoundaries()
    for position in [4, 9, 10] { kept.mark(position) }
    let other: [Token] = Array(0..<6) + [40, 41, 42, 43]
    let shared = DecodeSteps.promptPlan(
      prompt: other, boundaries: [5], cachedTokens: Array(0..<10), cachedBoundaries: kept, exactParts: false)
    #expect(shared.reused == 6)
    #expect(shared.parts == [DecodeSteps.PromptPart(range: 6..<10, endsPart: true)])
    let same = DecodeSteps.promptPlan(
      prompt: Array(0..<10), boundaries: [4], cachedTokens: Array(0..<10), cachedBoundaries: kept, exactParts: false)
    #expect(same.reused == 9 && same.parts.map(\.range) == [9..<10])
    // Under a kernel whose one-row products round otherwise, the same prompt again evaluates
    // its last two tokens; a prompt that shares less is planned as before.
    let twoRows = DecodeSteps.promptPlan(
      prompt: Array(0..<10), boundaries: [4], cachedTokens: Array(0..<10), cachedBoundaries: kept, exactParts: false,
      consistentRows: 2)
    #expect(twoRows.reused == 8 && twoRows.parts.map(\.range) == [8..<10])
    let sharedTwoRows = DecodeSteps.promptPlan(
      prompt: other, boundaries: [5], cachedTokens: Array(0..<10), cachedBoundaries: kept, exactParts: false,
      consistentRows: 2)
    #expect(sharedTwoRows.reused == 6)
  }

  /// A session's next turn continues its cache past the last part: all it shares is reused and
  /// the rest is one decode that ends no part.
  @Test func aSessionsNextTurnReusesEverythingItShares() {
    var boundaries = PartBoundaries()
    for position in [4, 9, 10] { boundaries.mark(position) }
    let cached: [Token] = Array(0..<14)
    let next: [Token] = Array(0..<14) + [50, 51, 52]
    let plan = DecodeSteps.promptPlan(prompt: next, boundaries: [4], cachedTokens: cached, cachedBoundaries: boundaries)
    #expect(plan.reused == 14)
    #expect(plan.parts == [DecodeSteps.PromptPart(range: 14..<17, endsPart: false)])
  }

  /// A tool round holds the whole of its turn's last prompt, then the call as the transcript
  /// renders it, which may differ from the reply from its first token on: the last prompt,
  /// every part of it, is reused all the same.
  @Test func aToolRoundReusesTheWholeLastPromptWhenTheReplyDiffers() {
    var boundaries = PartBoundaries()
    for position in [4, 9, 10] { boundaries.mark(position) }
    let cached: [Token] = Array(0..<10) + [20, 21, 22]
    let next: [Token] = Array(0..<10) + [30, 31, 32, 33]
    let plan = DecodeSteps.promptPlan(prompt: next, boundaries: [4], cachedTokens: cached, cachedBoundaries: boundaries)
    #expect(plan.reused == 10)
    #expect(plan.parts == [DecodeSteps.PromptPart(range: 10..<14, endsPart: false)])
    // A cache that ends where its last part does (a prewarmed system turn) is continued part
    // by part, as a fresh cache would be.
    var prewarmed = PartBoundaries()
    prewarmed.mark(4)
    let first = DecodeSteps.promptPlan(
      prompt: Array(0..<10), boundaries: [4], cachedTokens: Array(0..<4), cachedBoundaries: prewarmed)
    #expect(first.reused == 4)
    #expect(first.parts == [4..<9, 9..<10].map { DecodeSteps.PromptPart(range: $0, endsPart: true) })
  }

  @Test func cancellationStopsBetweenTokens() throws {
    var steps = try decodeSteps(prompt: tokens("go"))
    _ = try startAtPromptEnd(&steps)
    let cancellation = CancellationFlag()
    cancellation.cancel()
    let error = #expect(throws: EngineError.self) { try next(&steps, preferring: ["x"], cancellation: cancellation) }
    #expect(error?.code == .cancelled)
    #expect(steps.generated.isEmpty)
  }
}
