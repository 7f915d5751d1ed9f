import Testing

@testable import GuidedDecoding

/// `not`, `if`/`then`/`else`, the dependency keywords and overlapping `oneOf`, all written as
/// supported keywords through `SchemaNegation`: each schema accepts exactly what its
/// definition admits (under the standard's language), and generation never dead-ends.
@Suite struct ConditionalKeywordTests {
  @Test(arguments: [
    OutputCase(#"{"not":{"type":"string"}}"#, "12", true),
    OutputCase(#"{"not":{"type":"string"}}"#, #""a""#, false),
    OutputCase(#"{"type":"string","not":{"const":"draft"}}"#, #""final""#, true),
    OutputCase(#"{"type":"string","not":{"const":"draft"}}"#, #""draft""#, false),
    OutputCase(#"{"type":"string","not":{"const":"draft"}}"#, #""drafts""#, true),
    OutputCase(#"{"type":"string","not":{"enum":["a","ab"]}}"#, #""ab""#, false),
    OutputCase(#"{"type":"string","not":{"enum":["a","ab"]}}"#, #""abc""#, true),
    OutputCase(#"{"type":"string","not":{"enum":["a","ab"]}}"#, #""""#, true),
    OutputCase(#"{"type":"integer","not":{"enum":[3,5]}}"#, "4", true),
    OutputCase(#"{"type":"integer","not":{"enum":[3,5]}}"#, "5", false),
    OutputCase(#"{"type":"number","not":{"minimum":1}}"#, "0.5", true),
    OutputCase(#"{"type":"number","not":{"minimum":1}}"#, "1", false),
    OutputCase(#"{"type":"object","not":{"required":["a"]}}"#, #"{"b":1}"#, true),
    OutputCase(#"{"type":"object","not":{"required":["a"]}}"#, #"{"a":1}"#, false),
    OutputCase(#"{"type":"string","not":{"maxLength":2}}"#, #""abc""#, true),
    OutputCase(#"{"type":"string","not":{"maxLength":2}}"#, #""ab""#, false),
  ])
  func notIsTheComplement(c: OutputCase) throws {
    #expect(try automaton(c.schema, constraint: .standard).accepts(c.text) == c.accepted)
  }

  @Test func notOfEverythingIsUnsatisfiable() {
    #expect(throws: SchemaError.self) { try automaton(#"{"not":{}}"#) }
  }

  static let conditional =
    #"{"type":"object","properties":{"kind":{"enum":["card","cash"]},"number":{"type":"string"}},"required":["kind"],"if":{"properties":{"kind":{"const":"card"}}},"then":{"required":["number"]},"else":{"properties":{"number":false}}}"#

  static let splitConditional =
    #"{"allOf":[{"if":{"exclusiveMaximum":0}},{"then":{"minimum":-10}},{"else":{"multipleOf":2}}]}"#

  @Test(arguments: [
    OutputCase(conditional, #"{"kind":"card","number":"4111"}"#, true),
    OutputCase(conditional, #"{"kind":"card"}"#, false),
    OutputCase(conditional, #"{"kind":"cash"}"#, true),
    OutputCase(conditional, #"{"kind":"cash","number":"4111"}"#, false),
    // `then` and `else` apply only beside their own `if`: in other `allOf` parts they do nothing.
    OutputCase(splitConditional, "-100", true),
    OutputCase(splitConditional, "3", true),
  ])
  func ifThenElse(c: OutputCase) throws {
    #expect(try automaton(c.schema, constraint: .standard).accepts(c.text) == c.accepted)
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  static let dependent =
    #"{"type":"object","properties":{"card":{"type":"string"},"billing":{"type":"string"},"zip":{"type":"string"}},"dependentRequired":{"card":["billing"]},"dependentSchemas":{"billing":{"required":["zip"]}},"additionalProperties":false}"#
  static let draft7 =
    #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"dependencies":{"a":["b"]},"additionalProperties":false}"#

  @Test(arguments: [
    OutputCase(dependent, "{}", true),
    OutputCase(dependent, #"{"card":"x","billing":"y","zip":"z"}"#, true),
    OutputCase(dependent, #"{"card":"x"}"#, false),
    OutputCase(dependent, #"{"card":"x","billing":"y"}"#, false),
    OutputCase(dependent, #"{"zip":"z"}"#, true),
    OutputCase(draft7, #"{"a":1,"b":2}"#, true),
    OutputCase(draft7, #"{"a":1}"#, false),
    OutputCase(draft7, #"{"b":2}"#, true),
  ])
  func dependencies(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  static let overlapping = #"{"type":"number","oneOf":[{"maximum":2},{"maximum":5}]}"#
  static let shapes =
    #"{"type":"object","properties":{"r":{"type":"number"},"w":{"type":"number"}},"oneOf":[{"required":["r"]},{"required":["w"]}],"additionalProperties":false}"#

  @Test(arguments: [
    OutputCase(overlapping, "1", false),
    OutputCase(overlapping, "3", true),
    OutputCase(overlapping, "6", false),
    OutputCase(shapes, #"{"r":1}"#, true),
    OutputCase(shapes, #"{"w":1}"#, true),
    OutputCase(shapes, #"{"r":1,"w":1}"#, false),
    OutputCase(shapes, "{}", false),
  ])
  func overlappingOneOfAdmitsExactlyOne(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  static let closedAndExtended =
    #"{"allOf":[{"properties":{"a":{"type":"integer"}},"additionalProperties":{"type":"string"}},{"properties":{"b":{"maxLength":2}},"required":["b"]}]}"#

  @Test(arguments: [
    OutputCase(closedAndExtended, #"{"a":1,"b":"xy"}"#, true),
    OutputCase(closedAndExtended, #"{"b":"xy","c":"z"}"#, true),
    OutputCase(closedAndExtended, #"{"b":"xyz"}"#, false),
    OutputCase(closedAndExtended, #"{"b":1}"#, false),
    OutputCase(closedAndExtended, #"{"b":"x","c":1}"#, false),
    OutputCase(closedAndExtended, #"{"a":1}"#, false),
  ])
  func allOfMergesAdditionalPropertiesWithAnotherPartsProperties(c: OutputCase) throws {
    #expect(try automaton(c.schema, constraint: .standard).accepts(c.text) == c.accepted)
  }

  @Test func closingFindsANumberAboveAnExclusiveBound() throws {
    let a = try automaton(#"{"type":"number","exclusiveMinimum":2,"maximum":5}"#)
    let s = try #require(a.next(a.initialState, bytes: Array("2.".utf8)))
    let closing = try #require(a.closingBytes(from: s))
    #expect(a.isComplete(try #require(a.next(s, bytes: closing))))
    #expect(closing.count <= 2)
  }

  @Test func whatCannotBeNegatedIsRefusedWithItsPath() {
    #expect(throws: SchemaError.unsupportedKeyword("not (pattern)", path: "/properties/a")) {
      try automaton(#"{"type":"object","properties":{"a":{"not":{"pattern":"^x"}}}}"#)
    }
    #expect(throws: SchemaError.unsupportedKeyword("if (not (multipleOf))", path: "/if")) {
      try automaton(#"{"if":{"multipleOf":2},"then":{"minimum":0}}"#)
    }
  }
}
