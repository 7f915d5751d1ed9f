import FMTestSupport
import Foundation
import Synchronization
import Testing

@testable import InferenceEngine

/// What decodes cost by their rows (`DecodeCosts`), and drafts cut to what pays by it
/// (`DraftPolicy.worthEvaluating`).
@Suite struct DecodeCostsTests {
  /// The table is measured once, when a cost is first asked for, and never changes after:
  /// the drafts, and so a greedy answer, do not depend on the load of the machine.
  @Test func theTableIsMeasuredOnceWhenFirstUsed() async {
    let measurements = Mutex(0)
    let costs = DecodeCosts {
      measurements.withLock { $0 += 1 }
      return DecodeCosts.Table(ratios: [1: 1, 2: 1.5, 4: 2.5], oneRowSeconds: 0.01)
    }
    #expect(measurements.withLock { $0 } == 0)
    await withTaskGroup(of: Double.self) { group in
      for _ in 0..<8 { group.addTask { costs.ratio(rows: 2) } }
      for await ratio in group { #expect(ratio == 1.5) }
    }
    #expect(costs.ratio(rows: 4) == 2.5 && costs.oneRowSeconds == 0.01)
    #expect(measurements.withLock { $0 } == 1)
  }

  /// Between two row counts measured the cost is interpolated; past the last it grows with the
  /// rows; a table without costs presumes rows cheap.
  @Test func unmeasuredRowCountsAreInterpolated() {
    let costs = DecodeCosts(ratios: [1: 1, 2: 2, 4: 3, 8: 5])
    #expect(costs.ratio(rows: 1) == 1)
    #expect(abs(costs.ratio(rows: 3) - 2.5) < 1e-9)
    #expect(abs(costs.ratio(rows: 6) - 4) < 1e-9)
    #expect(abs(costs.ratio(rows: 16) - 10) < 1e-9)
    let presumed = DecodeCosts(ratios: [:]).ratio(rows: 8)
    #expect(presumed > 1 && presumed < 2)
  }

  /// On the real model: the costs are measured for every row count, a decode of one costing 1,
  /// and kept in the file, keyed by the model's kind, the threads, the kernel and the machine;
  /// a later measurement reads them there, and a line that is not a full table is skipped.
  /// (Timings that agree are kept whatever the spread: other tests run beside this one.)
  @Test func measuredCostsAreKeptForLaterProcesses() async throws {
    let model = try await TestModels.smolLM2()
    let file = MeasurementFile(
      url: FileManager.default.temporaryDirectory.appendingPathComponent("decode-costs-\(UUID().uuidString)"))
    defer { try? FileManager.default.removeItem(at: file.url) }
    let measured = model.measuredDecodeCosts(threads: 1, kernel: .flash, file: file, agreement: .infinity)
    #expect(Set(measured.ratios.keys) == Set(LlamaModel.measuredRows))
    #expect(measured.ratios[1] == 1 && measured.ratios.values.allSatisfy { $0.isFinite && $0 > 0 })
    #expect((measured.oneRowSeconds ?? 0) > 0)
    let lines = file.values()
    #expect(lines.count == 1)
    let key = try #require(lines.keys.first)
    #expect(key.contains(model.description) && key.contains("1 threads") && key.contains("flash"))
    #expect(LlamaModel.decodeCosts(from: try #require(lines[key])) == rounded(measured))
    // A later process reads the line instead of measuring: a full table written there is what it gets.
    let doubled = DecodeCosts.Table(ratios: measured.ratios.mapValues { $0 * 2 }, oneRowSeconds: 1)
    file.append(LlamaModel.line(of: doubled), for: key)
    let read = model.measuredDecodeCosts(threads: 1, kernel: .flash, file: file, agreement: .infinity)
    #expect(read == rounded(doubled))
    // A line that is not a full table is measured again (a decode of one costs 1, not 2).
    file.append("2:1.5 3:oops", for: key)
    let again = model.measuredDecodeCosts(threads: 1, kernel: .flash, file: file, agreement: .infinity)
    #expect(Set(again.ratios.keys) == Set(LlamaModel.measuredRows) && again.ratios[1] == 1)
    #expect(LlamaModel.decodeCosts(from: try #require(file.values()[key])) == rounded(again))
  }

  /// A table as its line keeps it: ratios to three decimals.
  func rounded(_ table: DecodeCosts.Table) -> DecodeCosts.Table {
    DecodeCosts.Table(
      ratios: table.ratios.mapValues { ($0 * 1000).rounded() / 1000 }, oneRowSeconds: table.oneRowSeconds)
  }

  func guesses(_ count: Int, _ guess: DecodeSteps.Guess = .copied) -> [DecodeSteps.Draft] {
    (0..<count).map { DecodeSteps.Draft(token: Token($0), guess: guess) }
  }

  /// Rows as dear as tokens: no guess pays once its kind was tried (its first guess is tried
  /// once). Rows free: all of them do.
  @Test func draftsAreCutToWhatPays() {
    var policy = DraftPolicy(constrained: false)
    let dear = DecodeCosts(ratios: Dictionary(uniqueKeysWithValues: (1...32).map { ($0, Double($0)) }))
    let free = DecodeCosts(ratios: Dictionary(uniqueKeysWithValues: (1...32).map { ($0, 1.0) }))
    #expect(policy.worthEvaluating(guesses(15), after: 1, costs: dear) == 1)
    policy.odds.record(guesses(1), confirmed: 1)
    #expect(policy.worthEvaluating(guesses(15), after: 1, costs: dear) == 0)
    #expect(policy.worthEvaluating(guesses(15), after: 1, costs: free) == 15)
  }

  /// Forced text before the first guess of an untried kind is evaluated with it.
  @Test func anUntriedKindIsTriedOnceWithTheForcedTextBeforeIt() {
    var policy = DraftPolicy(constrained: true)
    let dear = DecodeCosts(ratios: Dictionary(uniqueKeysWithValues: (1...32).map { ($0, Double($0) * 2) }))
    let forced = DecodeSteps.Draft(token: 9)
    let model = DecodeSteps.Draft(token: 1, guess: .model)
    #expect(policy.worthEvaluating([forced, model, model], after: 1, costs: dear) == 2)
    policy.odds.record([forced, model], confirmed: 1)
    #expect(policy.worthEvaluating([forced, model, model], after: 1, costs: dear) == 0)
  }

  /// Where a decode of 5 rows costs little more than one of 4 and larger ones much more, a
  /// draft of 4 guesses is evaluated, not 3 or more than 4.
  @Test func theCheapestGroupOfRowsIsChosen() {
    let policy = DraftPolicy(constrained: false)
    var ratios: [Int: Double] = [2: 1.7, 3: 3, 4: 2.9, 5: 3.1, 6: 4.2, 7: 4.9, 8: 6, 9: 6.5]
    for rows in 10...16 { ratios[rows] = 10 }
    #expect(policy.worthEvaluating(guesses(4), after: 1, costs: DecodeCosts(ratios: ratios)) == 4)
    #expect(policy.worthEvaluating(guesses(15), after: 1, costs: DecodeCosts(ratios: ratios)) == 4)
  }

  /// A copy that went on for some tokens is presumed to go on: where 16 rows cost less per row
  /// than 5, a copy's first draft is long.
  @Test func aFirstCopyIsLongWhereLargeDecodesPay() {
    let policy = DraftPolicy(constrained: false)
    var ratios: [Int: Double] = [2: 1.7, 3: 3, 4: 2.9, 5: 3.1, 6: 4.2, 7: 4.9, 8: 5.5, 9: 5.5]
    for rows in 10...16 { ratios[rows] = 7.4 }
    #expect(policy.worthEvaluating(guesses(15), after: 1, costs: DecodeCosts(ratios: ratios)) == 15)
  }

  /// The kind's record decides: a copy whose guesses were refused drafts less than one whose
  /// guesses were confirmed.
  @Test func refusedGuessesShortenTheNextDrafts() {
    let costs = DecodeCosts(ratios: Dictionary(uniqueKeysWithValues: (1...32).map { ($0, 1 + 0.4 * Double($0 - 1)) }))
    var confirming = DraftPolicy(constrained: false)
    var refusing = DraftPolicy(constrained: false)
    for _ in 0..<8 {
      confirming.odds.record(guesses(8), confirmed: 8)
      refusing.odds.record(guesses(8), confirmed: 1)
    }
    let long = confirming.worthEvaluating(guesses(15), after: 1, costs: costs)
    let short = refusing.worthEvaluating(guesses(15), after: 1, costs: costs)
    #expect(short == 1)
    #expect(long > 8)
  }

  /// Without a constraint one refusal deep in a long copy does not cut the next copies to the
  /// guesses before it for good: the places after the first share their counts (a text's edit
  /// falls anywhere in a draft). Under a constraint places are counted apart.
  @Test func oneRefusalDeepInACopyLeavesTheNextCopiesLong() {
    // Rows priced as on a 2-core AVX2 CPU: 6 rows cheap for their tokens, 16 cheaper still.
    let costs = DecodeCosts(ratios: [
      2: 1.73, 3: 2.41, 4: 2.52, 5: 3.11, 6: 3.7, 7: 5.25, 8: 5.89, 9: 6.34, 10: 6.67, 11: 7.29, 12: 7.38,
      13: 7.68, 14: 8.18, 15: 7.51, 16: 7.51,
    ])
    var lengths: [Int] = []
    for constrained in [false, true] {
      var policy = DraftPolicy(constrained: constrained)
      #expect(policy.worthEvaluating(guesses(15), after: 1, costs: costs) == 15)
      policy.odds.record(guesses(15), confirmed: 5)
      for _ in 0..<4 { policy.odds.record(guesses(5), confirmed: 5) }
      lengths.append(policy.worthEvaluating(guesses(15), after: 1, costs: costs))
    }
    #expect(lengths == [15, 5])
  }

  /// A guess after forced text (a key) begins a value: its odds are those of a value's first
  /// guess, not those of a copy going on at its place in the draft. Where the next value's
  /// first guesses were refused, a draft that copies a value, ends it and takes the next key is
  /// cut before them; where they were confirmed, it keeps the first.
  @Test func aGuessAfterAKeyHasAValuesFirstGuessOdds() {
    let costs = DecodeCosts(ratios: Dictionary(uniqueKeysWithValues: (2...16).map { ($0, 1 + 0.3 * Double($0 - 1)) }))
    let key = (0..<3).map { _ in DecodeSteps.Draft(token: 9) }
    let draft = guesses(3) + guesses(1, .closer) + key + guesses(4, .nextValue)
    var lengths: [Int] = []
    for confirmed in [false, true] {
      var policy = DraftPolicy(constrained: true)
      for _ in 0..<4 {
        policy.odds.record(guesses(3), confirmed: 3)
        policy.odds.record(key + guesses(1, .nextValue), confirmed: confirmed ? 4 : 3)
      }
      lengths.append(policy.worthEvaluating(draft, after: 1, costs: costs))
    }
    #expect(lengths == [7, 8])
  }

  /// Forced text is certain, but a draft of forced text alone is not evaluated.
  @Test func forcedTextAloneIsNotADraft() {
    let policy = DraftPolicy(constrained: true)
    let costs = DecodeCosts(ratios: [2: 1.1, 3: 1.2, 4: 1.3, 5: 1.4])
    let forced = (0..<3).map { DecodeSteps.Draft(token: Token($0)) }
    #expect(policy.worthEvaluating(forced, after: 1, costs: costs) == 0)
    #expect(policy.worthEvaluating(guesses(1) + forced, after: 1, costs: costs) == 4)
  }

  /// Where every row costs a token's, a generation that would copy drafts once at most (the
  /// first guess, to try its kind), and writes what it writes without drafts.
  @Test(arguments: [true, false])
  func aGenerationDraftsOnlyWhereRowsPay(dear: Bool) async throws {
    let model = ScriptedTokenModel(tokens: ["x", "y"]) { context in
      let count = context.filter { $0 < 2 }.count
      return [count % 2 == 0 ? 0 : 1: 10]
    }
    let costs = (1...32).map { ($0, dear ? Double($0) : 1) }
    model.decodeCosts = DecodeCosts(ratios: Dictionary(uniqueKeysWithValues: costs))
    let request = GenerationRequest(
      promptTokens: model.tokenize(String(repeating: "xy", count: 8), parseSpecial: false), sampling: .greedy,
      maximumTokens: 16, speculation: .lookup)
    var text = ""
    var usage: GenerationUsage?
    for try await event in InferenceSession(model: model).generate(request) {
      if case .text(let piece) = event { text += piece }
      if case .finished(let summary) = event { usage = summary.usage }
    }
    #expect(text == String(repeating: "xy", count: 8))
    if dear {
      // The first guess is tried once, and no other.
      #expect((usage?.draftTokens ?? 0) <= 1)
    } else {
      #expect((usage?.confirmedDraftTokens ?? 0) > 0)
    }
  }
}
