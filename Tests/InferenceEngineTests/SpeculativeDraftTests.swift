import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// Draft tokens from the text so far (prompt lookup), with and without a constraint.
@Suite struct SpeculativeDraftTests {
  /// What a generation wrote and how many forward passes it took.
  struct Outcome {
    var text = ""
    var summary: GenerationSummary?
    var evaluations = 0

    /// Runs `request` on `model`, new to it.
    init(generating request: GenerationRequest, on model: ScriptedTokenModel) async throws {
      for try await event in InferenceSession(model: model).generate(request) {
        switch event {
        case .text(let piece): text += piece
        case .finished(let finished): summary = finished
        case .logProbabilities, .promptLogProbabilities: break
        }
      }
      evaluations = model.evaluations
    }
  }

  /// Eight letters after the prompt "xyxy…" (16 letters: a long enough match for drafts
  /// without a constraint too, `DraftPolicy.copyMatch`); `next` picks each from the letters so
  /// far.
  /// - Parameter constrained: whether a constraint shapes the output as eight letters; without
  ///   one, the generation stops after eight tokens.
  func generate(
    _ sampling: SamplingParameters, speculation: Speculation = .lookup, constrained: Bool = true,
    next: @escaping @Sendable (String) -> String
  ) async throws -> Outcome {
    let model = ScriptedTokenModel(tokens: ["x", "y"]) { context in
      // Single-byte tokens: the prompt is 16 of them; the rest is the answer so far.
      let text = String(
        decoding: context.dropFirst(16).flatMap { $0 < 2 ? Array(["x", "y"][Int($0)].utf8) : [] }, as: UTF8.self)
      return [next(text) == "x" ? 0 : 1: 10]
    }
    let request = GenerationRequest(
      promptTokens: model.tokenize(String(repeating: "xy", count: 8), parseSpecial: false), sampling: sampling,
      maximumTokens: 8,
      constraint: constrained ? Shaped(model: model, shape: "LLLLLLLL") : nil, speculation: speculation)
    return try await Outcome(generating: request, on: model)
  }

  @Test(arguments: [true, false])
  func confirmedDraftsSaveForwardPassesAndChangeNothing(constrained: Bool) async throws {
    let alternate: @Sendable (String) -> String = { $0.count % 2 == 0 ? "x" : "y" }
    let drafted = try await generate(.greedy, constrained: constrained, next: alternate)
    let plain = try await generate(.greedy, speculation: .off, constrained: constrained, next: alternate)
    #expect(drafted.text == "xyxyxyxy")
    #expect(drafted.text == plain.text)
    #expect((drafted.summary?.usage.confirmedDraftTokens ?? 0) >= 3)
    #expect(plain.summary?.usage.draftTokens == 0)
    #expect(drafted.evaluations < plain.evaluations)
  }

  /// The longest match wins, then the most recent of equal ones; the match's length comes
  /// with the tokens that followed it, and a match shorter than the policy's drafts nothing.
  @Test func theLongestMatchWinsThenTheMostRecent() {
    let context: [Token] = [1, 2, 3, 9, 5, 2, 3, 8, 1, 2, 3]
    let longest = PromptLookup.find(in: context, count: 2)
    #expect(longest.match == 3)
    #expect(longest.tokens == [9, 5])
    let recent = PromptLookup.find(in: [2, 3, 7, 2, 3, 8, 2, 3], count: 3)
    #expect(recent.match == 2)
    #expect(recent.tokens == [8, 2, 3])
    #expect(DraftPolicy.guidedMatch == 4)
    #expect(DraftPolicy(constrained: true).length(after: 0, match: longest.match) == 0)
  }

  /// A model that writes `edited` after the prompt `source`, greedily, single-byte tokens, with
  /// prompt lookup and without drafts; each run's text is the model's own.
  func rewrite(_ source: String, into edited: String) async throws -> (drafted: Outcome, plain: Outcome) {
    var outcomes: [Outcome] = []
    for speculation in [Speculation.lookup, .off] {
      let model = ScriptedTokenModel(tokens: []) { context in
        // The prompt is the source; the rest is the answer so far.
        let written = context.count - source.utf8.count
        guard written >= 0, written < edited.utf8.count else { return [:] }
        return [Token(Array(edited.utf8)[written]): 10]
      }
      let request = GenerationRequest(
        promptTokens: model.tokenize(source, parseSpecial: false), sampling: .greedy,
        maximumTokens: edited.utf8.count, speculation: speculation)
      let outcome = try await Outcome(generating: request, on: model)
      #expect(outcome.text == edited)
      outcomes.append(outcome)
    }
    return (outcomes[0], outcomes[1])
  }

  /// An edit breaks a copied span (a rewrite): without a constraint the copy is drafted again
  /// once 4 tokens after the edit match the prompt (`DraftPolicy.shortMatch`), not 8, and the
  /// output is the model's own.
  @Test func aCopyResumesFourTokensAfterAnEdit() async throws {
    let source = "abcdefghijklmnopqrst"
    let edited = "abCdefghijklmnopqrst"
    let (drafted, plain) = try await rewrite(source, into: edited)
    // Up to "g" no 4 tokens match; "hij" is drafted after "defg", then "lmn" and "pqr" (3 is
    // the scripted backend's most), each confirmed; the budget leaves no room after "s". With 8
    // tokens to match, "hij" would not be drafted.
    let usage = try #require(drafted.summary?.usage)
    #expect(usage.draftTokens == 9)
    #expect(usage.confirmedDraftTokens == 9)
    #expect(drafted.evaluations == plain.evaluations - 9)
  }

  /// An edit made once (a letter fixed) breaks a copy that was going on: the copy resumes as
  /// soon as the model's token after the edit is the text's next one (`CopyEdits.realign`),
  /// not 4 tokens later, and the output is the model's own.
  @Test func aCopyResumesOneTokenAfterAnEditInIt() async throws {
    let source = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    let edited = source.replacingOccurrences(of: "p", with: "P")
    let (drafted, plain) = try await rewrite(source, into: edited)
    // "efg" is drafted after "abcd", then 3 at a time (the scripted backend's most), every
    // guess confirmed; after "P" the model writes "q", then "rst" is drafted. Were a match of
    // 4 tokens needed, "r" and "s" would be the model's own: 33 confirmed.
    let usage = try #require(drafted.summary?.usage)
    #expect(usage.draftTokens == usage.confirmedDraftTokens)
    #expect(usage.confirmedDraftTokens == 35)
    #expect(drafted.evaluations == plain.evaluations - 35)
  }

  /// A rewrite repeats its edits (a rename): once the model wrote "dog" where the text has
  /// "cat" and went on copying, later copies make the same change in their guesses, which the
  /// model confirms, and the output is the model's own.
  @Test func aCopyMakesTheEditsTheOutputMadeBefore() async throws {
    let source = "the cat sat on a mat. my cat ran to a hat. her cat ate a rat. our cat"
    let edited = source.replacingOccurrences(of: "cat", with: "dog")
    let (drafted, plain) = try await rewrite(source, into: edited)
    let usage = try #require(drafted.summary?.usage)
    // Only the first "cat" is guessed as the text has it (refused at "c"), and the first copy
    // after it ("d" "o" "g" written by the model, then " sa" guessed): every later one is
    // guessed "dog".
    #expect(usage.draftTokens - usage.confirmedDraftTokens <= 3)
    #expect(drafted.evaluations <= plain.evaluations - 20)
  }

  /// A sampled request drafts too; where the model is sure, the draft is always confirmed.
  @Test func aSampledRequestDraftsAndKeepsTheModelsChoices() async throws {
    let alternate: @Sendable (String) -> String = { $0.count % 2 == 0 ? "x" : "y" }
    let sampled = try await generate(
      SamplingParameters(strategy: .topK(2), seed: 7), constrained: false, next: alternate)
    #expect(sampled.text == "xyxyxyxy")
    #expect((sampled.summary?.usage.confirmedDraftTokens ?? 0) >= 3)
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
    let plain = try await generate(.greedy, speculation: .off, next: leave)
    #expect(greedy.text == "xyyxyyxy")
    #expect(greedy.text == plain.text)
    let usage = try #require(greedy.summary?.usage)
    #expect(usage.draftTokens > usage.confirmedDraftTokens)
  }
}
