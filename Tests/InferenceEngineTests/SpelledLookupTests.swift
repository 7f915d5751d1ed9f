import FMTestSupport
import Testing

@testable import InferenceEngine

/// The lookup by text (`SpelledLookup`): a value's text since its quote finds the document's
/// words that begin so, and drafts what follows them as the tokenizer splits it.
@Suite struct SpelledLookupTests {
  let model = ScriptedTokenModel(tokens: [
    "{\"", "item\":\"", "gar", "lic", " garlic", " oil", " salt", "\n", "x", " ", "a", "b", "z", "8", ".", "5", ":",
    "item", "\"",
  ]) {
    _ in [:]
  }

  func tokens(_ text: String) -> [Token] { model.tokenize(text, parseSpecial: false) }

  /// In a string the value is the text since the output's last quote, none after a quote
  /// alone; elsewhere the number the output ends with.
  @Test func theValueIsTheTextSinceTheLastQuoteOrTheNumber() {
    func value(_ text: String, inString: Bool = true) -> [UInt8]? {
      SpelledLookup.valueText(of: tokens(text)[...], model: model, inString: inString)
    }
    #expect(value("{\"item\":\"gar") == Array("gar".utf8))
    #expect(value("{\"item\":\"") == nil)
    #expect(value("garlic") == nil)
    #expect(value("{\"item\":8.5", inString: false) == Array("8.5".utf8))
    #expect(value("{\"item\":", inString: false) == nil)
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
    // Token 5 is the second line's ` garlic` (`a`, ` garlic`, ` oil`, `\n`, `b` before it).
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
