import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// Where a form's or a table's next value begins after the text the output copied last
/// (`NextValueLookup`), and the guesses drafted from it right after a key.
@Suite struct NextValueLookupTests {
  typealias Outcome = SpeculativeDraftTests.Outcome

  /// The text after a copied value, with `|` where the next value begins (none: nil).
  @Test(arguments: [
    // A table's next column, past the rest of the cell (`0` of `2.40`) and a currency sign.
    "0        $|360.00\n",
    // The next line of a table, past the rest of the cell.
    ".00\n|Table tent cards        60\n",
    // A form's next line, past its label.
    "\nInvoice date: |June 3, 2024\n",
    // A heading line, then the value on the line after it.
    "\nBill to:\n|Cedar & Thyme Bistro\n",
    // A bullet.
    "\n- |25 days of paid time off\n",
    // Prose: the next word.
    " |and 260 full-time jobs",
  ])
  func theNextValueBeginsPastLabelsAndGaps(_ marked: String) throws {
    let offset = try #require(marked.utf8.firstIndex(of: UInt8(ascii: "|")))
    let text = Array(marked.utf8).filter { $0 != UInt8(ascii: "|") }
    #expect(NextValueLookup.valueStart(in: text) == marked.utf8.distance(from: marked.utf8.startIndex, to: offset))
  }

  @Test(arguments: ["", "   \n  ", "rest", "\nLabel:\n\nOther:\nLast:\n"])
  func nothingBeginsWhereOnlyBlanksLabelsOrTheCellFollow(_ text: String) {
    #expect(NextValueLookup.valueStart(in: Array(text.utf8)) == nil)
  }

  /// The value begins one byte into a token with a leading space (` june`): that token is
  /// found, and the guess is its text without the space; inside a token otherwise, none.
  @Test func theValuesFirstTokenIsFoundWithOrWithoutItsSpace() {
    let model = ScriptedTokenModel(tokens: ["date", ":", " june", "june", "\n", "pay", "$", "12", "$12"]) { _ in [:] }
    let prompt = model.tokenize("date: june\npay: $12\n", parseSpecial: false)
    let june = NextValueLookup.start(in: SpelledLookup(prompt: prompt, model: model), after: 0)
    #expect(june.map { model.piece(of: prompt[$0.position]) } == Array(" june".utf8))
    #expect(june?.afterSpace == true)
    let twelve = model.tokenize("pay: $12\n", parseSpecial: false)
    #expect(
      NextValueLookup.start(in: SpelledLookup(prompt: twelve, model: model), after: 0) == nil,
      "`12` begins inside `$12`")
  }

  /// Generates `answer` under `shape` after `prompt`, with the lookup and without.
  func run(_ answer: String, vocabulary: [String], prompt: String, shape: String) async throws -> (Outcome, Outcome) {
    let lookup = GuidedLookupTests()
    func generate(_ speculation: Speculation) async throws -> Outcome {
      try await lookup.generate(
        vocabulary: vocabulary, prompt: prompt, speculation: speculation,
        shape: { Fields(model: $0, shape: shape) }, preferences: GuidedLookupTests.writing(answer))
    }
    return (try await generate(.lookup), try await generate(.off))
  }

  /// A table's values, each one token the document holds once: no copy goes on after any of
  /// them, so the lookup alone drafts nothing. Right after each key, the value that follows
  /// the last one in the table is guessed, and the model confirms every guess.
  @Test func aTablesValuesAreGuessedInTheirOrder() async throws {
    let vocabulary = [
      "{\"", "a\":\"", "b\":\"", "c\":\"", "d\":\"", "\",\"", "\"}", "km", "zt", "qp", "rs", "\n", "  ", "a", "b",
    ]
    let (drafted, plain) = try await run(
      "{\"a\":\"km\",\"b\":\"zt\",\"c\":\"qp\",\"d\":\"rs\"}", vocabulary: vocabulary,
      prompt: "a  b\nkm  zt\nqp  rs\n", shape: "{\"a\":\"V\",\"b\":\"V\",\"c\":\"V\",\"d\":\"V\"}")
    #expect(drafted.text == plain.text)
    let usage = try #require(drafted.summary?.usage)
    #expect(usage.draftTokens >= 3, "zt, qp and rs at least")
    #expect(usage.confirmedDraftTokens == usage.draftTokens)
    #expect(drafted.evaluations < plain.evaluations)
  }

  /// An answer that takes the document's values in another order: the guesses are refused,
  /// and the output is the model's own.
  @Test func valuesTakenInAnotherOrderAreTheModelsOwn() async throws {
    let vocabulary = [
      "{\"", "a\":\"", "b\":\"", "c\":\"", "\",\"", "\"}", "km", "zt", "qp", "\n", ":", " ", "x", "y", "z",
    ]
    let answer = "{\"a\":\"km\",\"b\":\"qp\",\"c\":\"zt\"}"
    let (drafted, plain) = try await run(
      answer, vocabulary: vocabulary, prompt: "x: km\ny: zt\nz: qp\n", shape: "{\"a\":\"V\",\"b\":\"V\",\"c\":\"V\"}")
    #expect(drafted.text == answer)
    #expect(plain.text == answer)
    #expect(drafted.summary?.tokens == plain.summary?.tokens)
    let usage = try #require(drafted.summary?.usage)
    #expect(usage.confirmedDraftTokens < usage.draftTokens, "zt, guessed after km, is refused")
  }
}
