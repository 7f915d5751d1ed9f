import Testing

@testable import GuidedDecoding

/// `contains` with `minContains` and `maxContains`: the constraint accepts exactly the arrays
/// with the right number of matching elements, the validator agrees, and generation never
/// reaches a state it cannot close.
@Suite struct ContainsTests {
  static let atLeastOne = #"{"type":"array","items":{"type":"integer"},"contains":{"minimum":10}}"#
  static let twoOrThree =
    #"{"type":"array","items":{"type":"integer"},"contains":{"const":1},"minContains":2,"maxContains":3}"#
  static let bounded =
    #"{"type":"array","items":{"type":"string"},"contains":{"pattern":"^a"},"minContains":2,"maxItems":3}"#
  static let tuple =
    #"{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false,"contains":{"type":"integer"}}"#

  @Test(arguments: [
    OutputCase(atLeastOne, "[1,2,12]", true),
    OutputCase(atLeastOne, "[1,2]", false),
    OutputCase(atLeastOne, "[]", false),
    OutputCase(twoOrThree, "[1,5,1]", true),
    OutputCase(twoOrThree, "[1,1,1,7]", true),
    OutputCase(twoOrThree, "[1]", false),
    OutputCase(twoOrThree, "[1,1,1,1]", false),
    OutputCase(bounded, #"["ab","b","ac"]"#, true),
    OutputCase(bounded, #"["ab","b","c"]"#, false),
    OutputCase(tuple, #"["x",3]"#, true),
    OutputCase(tuple, #"["x"]"#, false),
    OutputCase(#"{"type":"array","contains":{"type":"string"},"minContains":0,"maxContains":1}"#, "[]", true),
    OutputCase(#"{"type":"array","contains":{"type":"string"},"minContains":0,"maxContains":1}"#, #"["a","b"]"#, false),
    OutputCase(#"{"type":"array","contains":{"type":"string"},"minContains":0}"#, "[1,2]", true),
  ])
  func standardLanguage(c: OutputCase) throws {
    try expectStandardMeaning(c)
  }

  /// After two strings that do not start with "a", a three-item array cannot hold two that do.
  @Test func choicesThatCannotReachTheMinimumAreLeftOut() throws {
    let a = try automaton(Self.bounded)
    #expect(!a.allowsPrefix(#"["b","c"#))
    #expect(a.allowsPrefix(#"["b","a"#))
    let state = try #require(a.next(a.initialState, bytes: Array(#"["b""#.utf8)))
    let closing = try #require(a.closingBytes(from: state))
    #expect(a.accepts(#"["b""# + String(decoding: closing, as: UTF8.self)))
  }

  @Test func unsatisfiableCountsAreErrors() {
    #expect(throws: SchemaError.self) {
      try automaton(#"{"type":"array","contains":{},"minContains":3,"maxContains":2}"#)
    }
    #expect(throws: SchemaError.self) {
      try automaton(#"{"type":"array","maxItems":1,"contains":{},"minContains":2}"#)
    }
  }

  @Test(arguments: [
    ("maxContains (not (pattern))", #"{"type":"array","contains":{"pattern":"^a"},"maxContains":1}"#),
    ("allOf with 'minContains' and another part's 'contains'", #"{"allOf":[{"contains":{}},{"minContains":2}]}"#),
    ("contains (nested contains)", #"{"type":"array","contains":{"contains":{"const":42}}}"#),
  ])
  func refusedWithKeyword(keyword: String, schema: String) {
    expectRefused(schema, keyword: keyword)
  }
}
