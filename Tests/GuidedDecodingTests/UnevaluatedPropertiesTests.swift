import Testing

@testable import GuidedDecoding

/// `unevaluatedProperties`: members that no in-place subschema that matched evaluated must
/// satisfy it. The constraint (standard language and generation's) and the validator agree on
/// each case; combinations whose meaning cannot be kept are refused by name.
@Suite struct UnevaluatedPropertiesTests {
  /// A base type through `$ref` and an extension in `allOf`, closed over both.
  static let extended = #"""
    {"$defs":{"base":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}},
     "allOf":[{"$ref":"#/$defs/base"},{"properties":{"name":{"type":"string"}}}],
     "unevaluatedProperties":false}
    """#
  /// A discriminated union: each branch evaluates its own members.
  static let union = #"""
    {"type":"object","properties":{"kind":{"enum":["a","b"]}},"required":["kind"],
     "oneOf":[{"properties":{"kind":{"const":"a"},"x":{"type":"integer"}}},
              {"properties":{"kind":{"const":"b"},"y":{"type":"string"}}}],
     "unevaluatedProperties":false}
    """#
  /// Branches that overlap: the exclusive construction keeps "exactly one".
  static let overlapping = #"""
    {"oneOf":[{"properties":{"x":{"type":"string"}},"required":["x"]},
              {"properties":{"y":{"type":"string"}},"required":["y"]}],
     "unevaluatedProperties":false}
    """#
  /// `then` evaluates its members only when `if` holds; `else` when it fails.
  static let conditional = #"""
    {"type":"object","properties":{"mode":{"type":"string"}},"required":["mode"],
     "if":{"properties":{"mode":{"const":"file"}}},
     "then":{"properties":{"path":{"type":"string"}}},
     "else":{"properties":{"url":{"type":"string"}}},
     "unevaluatedProperties":false}
    """#
  /// A schema for the members left, and a part whose own keyword sees only itself.
  static let typedRest = #"""
    {"properties":{"a":{"type":"integer"}},"unevaluatedProperties":{"type":"boolean"}}
    """#
  static let innerScope = #"""
    {"allOf":[{"properties":{"a":{"type":"integer"}},"unevaluatedProperties":false}],
     "properties":{"b":{"type":"integer"}}}
    """#
  static let dependent = #"""
    {"properties":{"card":{"type":"string"}},
     "dependentSchemas":{"card":{"properties":{"cvc":{"type":"string"}},"required":["cvc"]}},
     "unevaluatedProperties":false}
    """#
  /// `not` evaluates nothing: its members stay unevaluated.
  static let negated = #"""
    {"properties":{"a":{"type":"integer"}},"not":{"properties":{"b":{"const":1}},"required":["b"]},
     "unevaluatedProperties":false}
    """#

  @Test(arguments: [
    OutputCase(extended, #"{"id":1,"name":"n"}"#, true),
    OutputCase(extended, #"{"id":1}"#, true),
    OutputCase(extended, #"{"id":1,"name":"n","extra":2}"#, false),
    OutputCase(union, #"{"kind":"a","x":1}"#, true),
    OutputCase(union, #"{"kind":"b","y":"s"}"#, true),
    OutputCase(union, #"{"kind":"a","y":"s"}"#, false),
    OutputCase(union, #"{"kind":"b","x":1}"#, false),
    OutputCase(overlapping, #"{"x":"s"}"#, true),
    OutputCase(overlapping, #"{"y":"s"}"#, true),
    OutputCase(overlapping, #"{"x":"s","y":"s"}"#, false),
    OutputCase(overlapping, #"{"x":"s","z":"s"}"#, false),
    OutputCase(conditional, #"{"mode":"file","path":"/p"}"#, true),
    OutputCase(conditional, #"{"mode":"web","url":"u"}"#, true),
    OutputCase(conditional, #"{"mode":"file","url":"u"}"#, false),
    OutputCase(conditional, #"{"mode":"web","path":"/p"}"#, false),
    OutputCase(typedRest, #"{"a":1,"b":true}"#, true),
    OutputCase(typedRest, #"{"a":1,"b":2}"#, false),
    OutputCase(innerScope, #"{"a":1}"#, true),
    OutputCase(innerScope, #"{"a":1,"b":2}"#, false),
    OutputCase(dependent, #"{"card":"c","cvc":"1"}"#, true),
    OutputCase(dependent, #"{}"#, true),
    OutputCase(dependent, #"{"cvc":"1"}"#, false),
    OutputCase(negated, #"{"a":1}"#, true),
    OutputCase(negated, #"{"a":1,"b":2}"#, false),
  ])
  func constraintAndValidatorAgree(c: OutputCase) throws {
    try expectStandardMeaning(c)
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  /// Generation closes the object where the keyword says so: from any prefix, the shortest
  /// closing is valid and names no member the schema did not evaluate.
  @Test func generationClosesWithoutExtraMembers() throws {
    let a = try automaton(Self.extended)
    #expect(!a.allowsPrefix(#"{"id":1,"e"#))
    let state = try #require(a.next(a.initialState, bytes: Array(#"{"id":1,"#.utf8)))
    let closing = try #require(a.closingBytes(from: state))
    #expect(a.accepts(#"{"id":1,"# + String(decoding: closing, as: UTF8.self)))
  }

  @Test(arguments: [
    (
      "unevaluatedProperties with overlapping anyOf branches",
      #"{"anyOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}],"unevaluatedProperties":false}"#
    ),
    (
      "not (unevaluatedProperties)",
      #"{"not":{"properties":{"a":{}},"unevaluatedProperties":false}}"#
    ),
  ])
  func refusedWithKeyword(keyword: String, schema: String) {
    expectRefused(schema, keyword: keyword)
  }

  @Test func aValueThatIsNotASchemaIsAnError() {
    #expect(throws: SchemaError.invalidSchema("unevaluatedProperties must be a schema", path: "")) {
      try JSONSchemaParser().parse(#"{"unevaluatedProperties":3}"#)
    }
  }
}
