import Testing

@testable import GuidedDecoding

/// `ConstraintOptions.spacesSeparators`: JSON as Jinja's `tojson` writes it, a space after every
/// `:` and `,` between members and items, and nowhere else.
@Suite struct SpacedSeparatorsTests {
  static let spaced = ConstraintOptions(spacesSeparators: true)
  static let schema =
    #"{"type":"object","properties":{"site":{"type":"string"},"days":{"type":"array","items":{"type":"integer"}},"extra":{"type":"object","additionalProperties":{"type":"number"}}},"required":["site","days","extra"],"additionalProperties":false}"#

  @Test(arguments: [
    OutputCase(schema, #"{"site": "Oslo", "days": [1, 2], "extra": {"k": 1.5, "m": 2}}"#, true),
    OutputCase(schema, #"{"site": "a:b, c", "days": [], "extra": {}}"#, true),
    OutputCase(schema, #"{"site":"Oslo", "days": [1, 2], "extra": {}}"#, false),
    OutputCase(schema, #"{"site": "Oslo","days": [1, 2], "extra": {}}"#, false),
    OutputCase(schema, #"{"site": "Oslo", "days": [1,2], "extra": {}}"#, false),
    OutputCase(schema, #"{"site": "Oslo", "days": [1, 2], "extra": {"k":1}}"#, false),
    OutputCase(schema, #"{ "site": "Oslo", "days": [1, 2], "extra": {}}"#, false),
    OutputCase(schema, #"{"site":  "Oslo", "days": [1, 2], "extra": {}}"#, false),
  ])
  func spacesFollowEverySeparatorAndNothingElse(c: OutputCase) throws {
    #expect(try automaton(c.schema, constraint: Self.spaced).accepts(c.text) == c.accepted)
  }

  @Test func compactStaysTheDefault() throws {
    let compact = try automaton(Self.schema)
    #expect(compact.accepts(#"{"site":"Oslo","days":[1,2],"extra":{"k":1}}"#))
    #expect(!compact.accepts(#"{"site": "Oslo", "days": [1, 2], "extra": {"k": 1}}"#))
  }

  /// The space is forced text: after a key's colon and after a comma it is the only byte, so
  /// generation writes it without a choice.
  @Test func theSpaceAfterASeparatorIsForced() throws {
    let automaton = try automaton(Self.schema, constraint: Self.spaced)
    let start = try #require(automaton.next(automaton.initialState, bytes: Array(#"{"site": "Oslo","#.utf8)))
    #expect(automaton.forcedBytes(from: start) == Array(#" "days": ["#.utf8))
    let closing = try #require(automaton.closingBytes(from: automaton.initialState))
    #expect(automaton.accepts(String(decoding: closing, as: UTF8.self)))
  }
}
