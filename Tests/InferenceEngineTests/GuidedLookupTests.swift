import FMTestSupport
import Foundation
import Synchronization
import Testing

@testable import InferenceEngine

/// Prompt lookup under a constraint: values copied from a document are drafted from their
/// first token, end the way the last value ended, and take the next key with them.
@Suite struct GuidedLookupTests {
  typealias Outcome = SpeculativeDraftTests.Outcome

  /// Generates under the constraint `shape` makes, after `prompt`, with a model that prefers
  /// after each text the first token of each string `preferences` gives.
  func generate(
    vocabulary: [String], prompt: String, speculation: Speculation,
    shape: @escaping (ScriptedTokenModel) -> any TokenConstraint,
    preferences: @escaping @Sendable (String) -> [String: Float]
  ) async throws -> Outcome {
    let holder = Mutex<ScriptedTokenModel?>(nil)
    let promptCount = Mutex(0)
    let model = ScriptedTokenModel(tokens: vocabulary) { context in
      guard let model = holder.withLock({ $0 }) else { return [:] }
      let text = String(
        decoding: context.dropFirst(promptCount.withLock { $0 }).flatMap { model.piece(of: $0) }, as: UTF8.self)
      return Dictionary(
        uniqueKeysWithValues: preferences(text).map { (model.tokenize($0, parseSpecial: false)[0], $1) })
    }
    holder.withLock { $0 = model }
    let promptTokens = model.tokenize(prompt, parseSpecial: false)
    promptCount.withLock { $0 = promptTokens.count }
    let request = GenerationRequest(
      promptTokens: promptTokens, sampling: .greedy, constraint: shape(model), speculation: speculation)
    return try await Outcome(generating: request, on: model)
  }

  /// Generates `answer` from `prompt` under the `Fields` constraint of `shape`, with the lookup
  /// and without: both write it, the lookup drafts `drafts` tokens and the model confirms them
  /// all, in fewer evaluations than without.
  func expectCopied(
    _ answer: String, vocabulary: [String], prompt: String, shape: String, drafts: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    func run(_ speculation: Speculation) async throws -> Outcome {
      try await generate(
        vocabulary: vocabulary, prompt: prompt, speculation: speculation, shape: { Fields(model: $0, shape: shape) },
        preferences: Self.writing(answer))
    }
    let drafted = try await run(.lookup)
    let plain = try await run(.off)
    #expect(drafted.text == answer, sourceLocation: sourceLocation)
    #expect(plain.text == answer, sourceLocation: sourceLocation)
    let usage = try #require(drafted.summary?.usage, sourceLocation: sourceLocation)
    #expect(usage.draftTokens == drafts, sourceLocation: sourceLocation)
    #expect(usage.confirmedDraftTokens == drafts, sourceLocation: sourceLocation)
    #expect(drafted.evaluations < plain.evaluations, sourceLocation: sourceLocation)
  }

  /// The document writes each value after a space (` june`), the answer after a quote
  /// (`june`): compared without the space, the value's first token finds the document, whose
  /// only continuation there is drafted; where the document goes on with a line's end, which
  /// no value holds, the value ends as the one before it did (`","`), and the next key, forced,
  /// joins the draft.
  @Test func aCopiedValueIsDraftedWholeAndEndsAsTheLastOneDid() async throws {
    let vocabulary = [
      "{\"", "date\":\"", " june", "june", " three", "\",\"", "name\":\"", " may", "may", " one", "city\":\"",
      " rome", "rome", "\"}", "date", "name", "city",
    ]
    // ` three`; then, right after `name":"`, the next line's value (`NextValueLookup`): `may`,
    // ` one` and the `","` that ended the first value (`city":"` joins as forced), and `rome`.
    try await expectCopied(
      "{\"date\":\"june three\",\"name\":\"may one\",\"city\":\"rome\"}", vocabulary: vocabulary,
      prompt: "date: june three\nname: may one\ncity: rome\n", shape: "{\"date\":\"V\",\"name\":\"V\",\"city\":\"V\"}",
      drafts: 5)
  }

  /// A forced token in a draft that the model writes longer (`;[` as `;[x`) is healed as
  /// outside one: the output is the model's own, as without drafts.
  @Test func aForcedTokenInADraftIsHealed() async throws {
    let vocabulary = ["[", "[x", "x", "y", ";", ";[", ";[x", "]", "q"]
    // `x` occurs once in the prompt, before `y`: after the model's `x`, `y` is drafted, then
    // the forced `;[`, which the model writes `;[x`.
    let preferences: @Sendable (String) -> [String: Float] = { text in
      switch text {
      case "": ["[": 10, "[x": 1]
      case "[": ["x": 10]
      case "[x": ["y": 10]
      case "[xy": [";[x": 10, ";[": 9]
      default: ["y": 10]
      }
    }
    func run(_ speculation: Speculation) async throws -> Outcome {
      try await generate(
        vocabulary: vocabulary, prompt: "qxy", speculation: speculation, shape: { Shaped(model: $0, shape: "[LL;[L]") },
        preferences: preferences)
    }
    let drafted = try await run(.lookup)
    let plain = try await run(.off)
    #expect(plain.text == "[xy;[x]")
    #expect(drafted.text == plain.text)
    #expect(drafted.summary?.tokens == plain.summary?.tokens)
    #expect((drafted.summary?.usage.confirmedDraftTokens ?? 0) >= 1)
  }

  /// Every occurrence of the match must agree for a short match to draft, and only as far as
  /// they agree; tokens compare by their keys.
  @Test func aShortMatchDraftsWhatEveryOccurrenceAgreesOn() {
    let twice = PromptLookup.find(in: [5, 1, 2, 3, 9, 1, 2, 4, 8, 1], count: 3)
    #expect(twice.match == 1)
    #expect(twice.tokens == [2, 4, 8])
    #expect(twice.agreed == 1)
    let once = PromptLookup.find(in: [5, 1, 2, 3, 9, 8, 7, 1], count: 4)
    #expect(once.agreed == 4)
    // 17 and 7 share a key: the match is two tokens long, and the continuation is the text's.
    let keyed = PromptLookup.find(in: [6, 7, 2, 3, 6, 17], keys: [6, 7, 2, 3, 6, 7], count: 2)
    #expect(keyed.match == 2)
    #expect(keyed.tokens == [2, 3])
  }

  /// The document holds ` garlic` as one token, the model writes `gar` `lic` after the quote:
  /// no token of the output occurs in the document, and the value's text finds the rest
  /// (`SpelledLookup`), drafted as far as the line goes.
  @Test func aValueSplitOtherwiseThanTheDocumentIsFoundByItsText() async throws {
    // After `gar`: `lic` and ` oil`; the line's end ends the value, with no closer known yet.
    try await expectCopied(
      "{\"item\":\"garlic oil\"}",
      vocabulary: ["{\"", "item\":\"", "\"}", " garlic", "gar", "lic", " oil", "\n", "buy", ":"],
      prompt: "buy: garlic oil\n", shape: "{\"item\":\"V\"}", drafts: 2)
  }

  /// The document writes an amount with a comma between its thousands, a JSON number has none:
  /// the number's first digit finds the amount by its text (`SpelledLookup`), and where no
  /// string is open the copy leaves the comma out and goes on with the digits. (Taken, the
  /// comma would end the number, as JSON allows, and the model would refuse it.)
  @Test func aNumberIsCopiedWithoutTheCommasBetweenItsDigits() async throws {
    let vocabulary = [
      "{\"", "total\":", "\"", ",\"", "unit\":\"", "\"}", "total", ":", " ", "2", "8", "4", ",", ".", "5", "0", "sek",
      " sek", "\n",
    ]
    // After the model's `8`: `2` `8` `4`, the comma left out; after its `.`: `5` `0` (this
    // backend takes drafts of 3 tokens at most); after `unit":"`, the next value `sek`.
    try await expectCopied(
      "{\"total\":8284.50,\"unit\":\"sek\"}", vocabulary: vocabulary, prompt: "total: 8,284.50 sek\n",
      shape: "{\"total\":N,\"unit\":\"V\"}", drafts: 6)
  }

  /// The model writes the answer, token by token as its tokenizer splits what is left of it.
  static func writing(_ answer: String) -> @Sendable (String) -> [String: Float] {
    { text in answer.hasPrefix(text) && answer.count > text.count ? [String(answer.dropFirst(text.count)): 10] : [:] }
  }

  /// `q` begins two values of the document, each going on otherwise, and the answer skips the
  /// line between them (its value `w`, guessed after `b":"`, is refused): after the model's `q`
  /// for the second value the lookup alone has nothing every occurrence agrees on; the
  /// occurrence after the first value, where the output copied last, gives ` zt`.
  @Test func theOccurrenceNearestAfterTheLastCopyIsCopied() async throws {
    let answer = "{\"a\":\"q mk\",\"b\":\"q zt\"}"
    let drafted = try await generate(
      vocabulary: ["{\"", "a\":\"", "b\":\"", "\",\"", "\"}", "q", " q", " mk", " zt", "w", " w"],
      prompt: "one: q mk\nthree: w\ntwo: q zt\n", speculation: .lookup,
      shape: { Fields(model: $0, shape: "{\"a\":\"V\",\"b\":\"V\"}") }, preferences: Self.writing(answer))
    #expect(drafted.text == answer)
    #expect(drafted.summary?.usage.draftTokens == 2)
    #expect(drafted.summary?.usage.confirmedDraftTokens == 1)
  }

  /// A value the document holds twice, `lis`, copied where both occurrences agree: the
  /// document is read on from the first (where it is read in order), so the next value guessed
  /// after the next key is the one after it, `km`, not the one after the second, `zt`.
  @Test func aValueEveryOccurrenceAgreesOnIsReadOnFromTheFirst() async throws {
    let answer = "{\"a\":\"lis\",\"b\":\"km\"}"
    let drafted = try await generate(
      vocabulary: [
        "{\"", "a\":\"", "b\":\"", "\",\"", "\"}", "l", " l", "is", " km", "km", " zt", "zt", "\n", ":", "one", "two",
        "three", "four",
      ],
      prompt: "one: lis\ntwo: km\nthree: lis\nfour: zt\n", speculation: .lookup,
      shape: { Fields(model: $0, shape: "{\"a\":\"V\",\"b\":\"V\"}") }, preferences: Self.writing(answer))
    #expect(drafted.text == answer)
    let usage = try #require(drafted.summary?.usage)
    #expect(usage.draftTokens >= 2, "is, then km")
    #expect(usage.confirmedDraftTokens == usage.draftTokens)
  }

  /// The cursor follows what the model writes: to the nearest occurrence after it, or, with
  /// none there, to the only one in the prompt.
  @Test func theCursorFollowsTheModelsTokens() {
    let model = ScriptedTokenModel(tokens: ["q", " q", " mk", " zt"]) { _ in [:] }
    let prompt = model.tokenize("q mk q zt", parseSpecial: false)
    let (q, mk, zt) = (model.tokenize("q", parseSpecial: false)[0], prompt[1], prompt[3])
    var memory = GuidedLookupMemory()
    memory.follow(q, inPrompt: prompt, model: model)
    #expect(memory.cursor == nil, "q occurs twice")
    memory.follow(zt, inPrompt: prompt, model: model)
    #expect(memory.cursor == 4)
    memory.cursor = 0
    memory.follow(q, inPrompt: prompt, model: model)
    #expect(memory.cursor == 1)
    memory.follow(mk, inPrompt: prompt, model: model)
    #expect(memory.cursor == 2)
  }

  /// A batch that ends in a forced token the model may write longer (`"` as `"x`) takes the
  /// lookup's guesses after it in the same pass (here the prompt holds the answer whole); where
  /// the model writes the longer token, they go with the forced one. Either way the output is
  /// the model's own.
  @Test(arguments: [false, true])
  func guessesAfterAForcedTokenThatMayGrowChangeNothing(growing: Bool) async throws {
    let vocabulary = ["\"x", "ink", " blue", "pen", " red"]
    let answer = "{\"a\":\"pen red\",\"b\":\"ink blue\"}"
    let writing = Self.writing(answer)
    let preferences: @Sendable (String) -> [String: Float] = { text in
      if text.hasSuffix("red\",\"b\":") { return growing ? ["\"x": 10] : ["\"": 10] }
      if text.hasSuffix("\"x") { return ["\"": 10] }
      return writing(text)
    }
    func run(_ speculation: Speculation) async throws -> Outcome {
      try await generate(
        vocabulary: vocabulary, prompt: "example: \(answer)\n", speculation: speculation,
        shape: { Fields(model: $0, shape: "{\"a\":\"V\",\"b\":\"V\"}") }, preferences: preferences)
    }
    let drafted = try await run(.lookup)
    let plain = try await run(.off)
    #expect(drafted.text == (growing ? "{\"a\":\"pen red\",\"b\":\"x\"}" : answer))
    #expect(drafted.summary?.tokens == plain.summary?.tokens)
    // After `b":"`, `ink blue"}` is drafted: confirmed in the pass of the key, unless the model
    // wrote `"x`.
    #expect(drafted.evaluations == plain.evaluations - (growing ? 1 : 3))
  }
}
