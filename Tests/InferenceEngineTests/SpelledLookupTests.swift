import FMTestSupport
import Testing

@testable import InferenceEngine

/// The lookup by text (`SpelledLookup`): a value's text since its quote finds the document's
/// words that begin so, and drafts what follows them as the tokenizer splits it.
@Suite struct SpelledLookupTests {
  let model = ScriptedTokenModel(tokens: [
    "{\"", "item\":\"", "gar", "lic", " garlic", " oil", " salt", "\n", "x", " ", "a", "b", "z",
  ]) {
    _ in [:]
  }

  func tokens(_ text: String) -> [Token] { model.tokenize(text, parseSpecial: false) }

  /// Only the text after the output's last quote is the value's; none after a quote alone.
  @Test func theValueIsTheTextSinceTheLastQuote() {
    #expect(SpelledLookup.valueText(of: tokens("{\"item\":\"gar")[...], model: model) == Array("gar".utf8))
    #expect(SpelledLookup.valueText(of: tokens("{\"item\":\"")[...], model: model) == nil)
    #expect(SpelledLookup.valueText(of: tokens("garlic")[...], model: model) == nil)
  }

  /// Occurrences inside a word are not read; where the others go on alike the draft is what
  /// they agree on, where they part only the one nearest after the cursor is read.
  @Test func occurrencesAgreeOrTheNearestAfterTheCursorIsRead() throws {
    let prompt = tokens("a garlic oil\nb garlic salt\nxgarlic x\n")
    let lookup = SpelledLookup(prompt: prompt, model: model)
    let agreed = try #require(lookup.find(after: Array("gar".utf8), model: model, cursor: nil, window: 48))
    #expect(agreed.tokens == tokens("lic"))
    #expect(agreed.agreed)
    #expect(lookup.find(after: Array("garlic".utf8), model: model, cursor: nil, window: 48) == nil)
    // The second line begins at token 5 (`a`, ` garlic`, ` oil`, `\n`, `b`).
    let nearest = try #require(lookup.find(after: Array("garlic".utf8), model: model, cursor: 5, window: 48))
    #expect(nearest.tokens == tokens(" salt\n"))
    #expect(!nearest.agreed)
    #expect(lookup.find(after: Array("zz".utf8), model: model, cursor: 0, window: 48) == nil)
  }

  /// The continuation ends with its line, or at a gap of two spaces between columns.
  @Test func theContinuationEndsWithItsLineOrColumn() throws {
    let lookup = SpelledLookup(prompt: tokens("a garlic oil  x\n"), model: model)
    let found = try #require(lookup.find(after: Array("gar".utf8), model: model, cursor: nil, window: 48))
    #expect(found.tokens == tokens("lic oil  "))
  }
}
