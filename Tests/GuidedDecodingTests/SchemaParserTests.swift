import JSON
import Testing

@testable import GuidedDecoding

@Suite struct SchemaParserTests {
  let parser = JSONSchemaParser()

  @Test func objectPropertiesKeepDeclarationOrderAndRequiredness() throws {
    let doc = try parser.parse(
      #"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer","minimum":1}},"required":["a"],"additionalProperties":false}"#
    )
    guard case .object(let o) = doc.root else {
      Issue.record("not an object: \(doc.root)")
      return
    }
    #expect(o.properties.map(\.name) == ["b", "a"])
    #expect(o.properties.map(\.isRequired) == [false, true])
    #expect(o.additionalProperties == nil)
    #expect(o.properties[1].schema == .integer(NumberBounds(minimum: ExactDecimal(1))))
  }

  @Test func appleDialectOrdersByXOrder() throws {
    let doc = try parser.parse(
      #"{"type":"object","title":"Person","properties":{"age":{"type":"integer"},"name":{"type":"string"}},"required":["name","age"],"additionalProperties":false,"x-order":["name","age"]}"#
    )
    guard case .object(let o) = doc.root else {
      Issue.record("not an object")
      return
    }
    #expect(o.properties.map(\.name) == ["name", "age"])
  }

  @Test func typeArrayBecomesAnyOf() throws {
    let doc = try parser.parse(#"{"type":["string","null"]}"#)
    #expect(doc.root == .anyOf([.string(StringConstraints()), .null]))
  }

  @Test func enumKeepsOnlyMembersOfTheType() throws {
    let doc = try parser.parse(#"{"type":"string","enum":["a",1,"b"]}"#)
    #expect(doc.root == .anyOf([.const(.string("a")), .const(.string("b"))]))
  }

  @Test func localReferencesResolveIncludingRecursion() throws {
    let doc = try parser.parse(
      ##"{"$ref":"#/$defs/node","$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}},"additionalProperties":false}}}"##
    )
    #expect(doc.root == .ref("#/$defs/node"))
    #expect(doc.definitions["#/$defs/node"] != nil)
  }

  @Test func draft4ExclusiveBooleansAndLaterNumbers() throws {
    let d4 = try parser.parse(#"{"type":"number","minimum":0,"exclusiveMinimum":true}"#)
    #expect(d4.root == .number(NumberBounds(minimum: .zero, minimumIsExclusive: true)))
    let d6 = try parser.parse(#"{"type":"integer","exclusiveMaximum":10}"#)
    #expect(d6.root == .integer(NumberBounds(maximum: ExactDecimal(10), maximumIsExclusive: true)))
  }

  @Test(arguments: [
    ("unevaluatedItems", #"{"type":"array","unevaluatedItems":false}"#),
    ("allOf with two 'pattern'", #"{"allOf":[{"pattern":"a"},{"pattern":"b"}]}"#),
    ("not (pattern)", #"{"not":{"type":"string","pattern":"^a"}}"#),
    ("if (not (format))", #"{"if":{"format":"uri"},"then":{}}"#),
    ("uniqueItems", #"{"type":"array","uniqueItems":true}"#),
    ("format:idn-hostname", #"{"type":"string","format":"idn-hostname"}"#),
    ("format:regex", #"{"type":"string","format":"regex"}"#),
    ("example", #"{"type":"string","example":"x"}"#),
  ])
  func unsupportedKeywordsAreNamed(keyword: String, schema: String) {
    expectRefused(schema, keyword: keyword, parser: parser)
  }

  @Test func unknownKeywordsCanBeAcceptedAsAnnotations() throws {
    let lenient = JSONSchemaParser(options: .init(acceptsUnknownKeywords: true))
    #expect(try lenient.parse(#"{"type":"string","example":"x"}"#).root == .string(StringConstraints()))
    // Standard keywords are still refused: they are constraints.
    #expect(throws: SchemaError.self) { try lenient.parse(#"{"type":"array","uniqueItems":true}"#) }
  }

  @Test func noOpValuesOfUnsupportedKeywordsAreAccepted() throws {
    _ = try parser.parse(#"{"type":"array","uniqueItems":false}"#)
    _ = try parser.parse(#"{"type":"object","minProperties":0}"#)
  }

  @Test func overlappingOneOfIsExclusiveOrRefusedAndDisjointOneOfKept() throws {
    // Exactly one: a string of length 4 or more (the second branch's strings match both).
    let exclusive = try automaton(#"{"oneOf":[{"type":"string"},{"type":"string","maxLength":3}]}"#)
    #expect(exclusive.accepts(#""abcd""#))
    #expect(!exclusive.accepts(#""ab""#))
    // A branch whose complement cannot be written is refused, with the keyword and path.
    #expect(throws: SchemaError.unsupportedKeyword("oneOf (overlapping branches)", path: "/properties/p")) {
      try parser.parse(
        #"{"properties":{"p":{"oneOf":[{"type":"string","pattern":"a"},{"type":"string","maxLength":3}]}}}"#)
    }
    let doc = try parser.parse(#"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#)
    #expect(doc.root == .anyOf([.string(StringConstraints()), .integer(.unbounded)]))
  }

  @Test func unsupportedPatternIsAnError() {
    #expect(throws: SchemaError.self) { try parser.parse(#"{"type":"string","pattern":"(a)\\1"}"#) }
  }

  @Test func unresolvedReferenceIsAnError() {
    #expect(throws: SchemaError.self) {
      _ = try ConstraintAutomaton(parser.parse(##"{"$ref":"#/$defs/missing"}"##))
    }
  }
}
