import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// Speculation with a draft model (`Speculation.draft`): a second model's guesses, confirmed or
/// refused by the model that generates, on scripted models.
@Suite struct DraftModelTests {
  /// A model over x, y and 1 that prefers, after the prompt "xy", the letter `next` picks from
  /// the letters so far.
  static func model(_ next: @escaping @Sendable (String) -> String) -> ScriptedTokenModel {
    ScriptedTokenModel(tokens: ["x", "y", "1"]) { context in
      let text = String(
        decoding: context.dropFirst(2).flatMap { $0 < 3 ? Array(["x", "y", "1"][Int($0)].utf8) : [] },
        as: UTF8.self)
      return [["x": 0, "y": 1, "1": 2][next(text)] ?? 0: 10]
    }
  }

  static let alternate: @Sendable (String) -> String = { $0.count % 2 == 0 ? "x" : "y" }

  /// Eight tokens after the prompt "xy" (too short a text for the lookup to find anything),
  /// shaped as eight letters where `constrained`.
  func generate(
    _ model: ScriptedTokenModel, drafting draftModel: ScriptedTokenModel?, constrained: Bool = false
  ) async throws -> RecordedGeneration {
    let session =
      try draftModel.map { try InferenceSession(model: model, draftModel: $0) } ?? InferenceSession(model: model)
    return try await session.record(
      GenerationRequest(
        promptTokens: model.tokenize("xy", parseSpecial: false), maximumTokens: 8,
        constraint: constrained ? Shaped(model: model, shape: "LLLLLLLL") : nil,
        speculation: draftModel == nil ? .off : .draft))
  }

  /// A draft model that guesses what the model chooses: its guesses are confirmed, so the same
  /// text comes in fewer passes of the model.
  @Test(arguments: [false, true])
  func confirmedGuessesSavePassesAndChangeNothing(constrained: Bool) async throws {
    let target = Self.model(Self.alternate)
    let drafted = try await generate(target, drafting: Self.model(Self.alternate), constrained: constrained)
    let passes = target.evaluations
    let plain = try await generate(Self.model(Self.alternate), drafting: nil, constrained: constrained)
    #expect(drafted.text == "xyxyxyxy")
    #expect(drafted.text == plain.text)
    #expect(drafted.summary.usage.confirmedDraftTokens >= 3)
    #expect(passes < plain.summary.usage.generatedTokens)
  }

  /// A draft model that guesses wrong: its guesses are refused, its cache and the model's
  /// forget them, and the output is the model's own.
  @Test func refusedGuessesLeaveTheModelsChoices() async throws {
    // Each choice depends on the letters before it, so a refused guess left in either cache
    // would change what follows.
    let plan: @Sendable (String) -> String = { text in
      let letters = Array("xyyxyyxy")
      return text.count < letters.count ? String(letters[text.count]) : "y"
    }
    let drafted = try await generate(Self.model(plan), drafting: Self.model(Self.alternate))
    let plain = try await generate(Self.model(plan), drafting: nil)
    #expect(drafted.text == "xyyxyyxy")
    #expect(drafted.text == plain.text)
    #expect(drafted.summary.usage.draftTokens > drafted.summary.usage.confirmedDraftTokens)
  }

  /// Under a constraint the draft model guesses among the tokens it allows: a draft model that
  /// prefers "1" where the schema wants a letter guesses its likeliest letter instead, so no
  /// draft leaves the schema.
  @Test func guessesStayInsideTheConstraint() async throws {
    let digits = Self.model { text in text.count % 2 == 0 ? "1" : "y" }
    let drafted = try await generate(Self.model(Self.alternate), drafting: digits, constrained: true)
    #expect(drafted.text == "xyxyxyxy")
    #expect(drafted.summary.usage.draftTokens > 0)
  }

  /// A draft model whose tokens are not the model's is refused when the session is made, with
  /// the first token that differs; so is a request for draft speculation on a session without
  /// a draft model.
  @Test func aDraftModelMustShareTheVocabulary() async throws {
    let target = Self.model(Self.alternate)
    let other = ScriptedTokenModel(tokens: ["x", "z", "1"]) { _ in [:] }
    let error = #expect(throws: EngineError.self) { try InferenceSession(model: target, draftModel: other) }
    #expect(error?.code == .invalidRequest)
    #expect(error?.message.contains("token 1") == true)
    let larger = ScriptedTokenModel(tokens: ["x", "y", "1", "xy"]) { _ in [:] }
    #expect(throws: EngineError.self) { try InferenceSession(model: target, draftModel: larger) }
    await #expect(throws: EngineError.self) {
      _ = try await InferenceSession(model: target).record(
        GenerationRequest(promptTokens: [0, 1], maximumTokens: 2, speculation: .draft))
    }
  }

  /// The draft model's length grows while its guesses are confirmed and falls to one more than
  /// what was confirmed when they are not.
  @Test func theDraftModelsLengthFollowsWhatIsConfirmed() {
    var policy = DraftPolicy(constrained: false)
    #expect(policy.modelLength == DraftPolicy.firstModelLength)
    policy.record(drafted: 4, confirmed: 4, generated: 5, byModel: true)
    #expect(policy.modelLength == DraftPolicy.firstModelLength + DraftPolicy.modelGrowth)
    policy.record(drafted: 6, confirmed: 1, generated: 8, byModel: true)
    #expect(policy.modelLength == 2)
    policy.record(drafted: 3, confirmed: 0, generated: 9, byModel: false)
    #expect(policy.modelLength == 2, "the lookup's drafts leave it as it is")
  }

  /// The draft model guesses as many tokens as pay for its own decodes and the rows that
  /// verify them: all where both are cheap and its guesses are confirmed, none where a guess
  /// costs nearly a token and a row more; one while its guesses are untried, none where they
  /// could not pay even if all were confirmed; as proposed without costs.
  @Test func theDraftModelGuessesOnlyWhatPays() {
    func rows(_ cost: @escaping (Int) -> Double) -> DecodeCosts {
      DecodeCosts(ratios: Dictionary(uniqueKeysWithValues: (1...32).map { ($0, cost($0)) }))
    }
    let cheap = rows { 1 + 0.05 * Double($0 - 1) }
    let dear = rows { 1 + 0.7 * Double($0 - 1) }
    var policy = DraftPolicy(constrained: false)
    func guesses(
      _ costs: DecodeCosts?, _ guessCost: Double, after rows: Int = 1, remaining: Int = 256, tryCost: Double = 20
    ) -> Int {
      policy.modelGuesses(
        upTo: 4, after: rows, costs: costs, guessCost: guessCost, remaining: remaining,
        tryCost: tryCost)
    }
    #expect(guesses(nil, 1) == 4)
    #expect(guesses(cheap, 0.1) == 1, "untried: one")
    #expect(guesses(cheap, 0.1, remaining: 8) == 0, "too few tokens left to repay the try")
    #expect(guesses(dear, 0.6) == 0, "could not pay if all were confirmed")
    #expect(guesses(cheap, 1) == 0, "a guess costs a token")
    let drafted = (0..<4).map { DecodeSteps.Draft(token: Token($0), guess: .model) }
    for _ in 0..<8 { policy.odds.record(drafted, confirmed: 4) }
    #expect(guesses(cheap, 0.1) == 4)
    #expect(guesses(dear, 0.6) == 0)
    // After forced text the rows already yield their tokens: guesses must pay beside them, not
    // beside the sampled token alone (against which 5 rows look dear and a sixth cheap).
    #expect(guesses(rows { 0.6 * Double($0) }, 0.4, after: 5) == 0)
  }
}
