import Testing

@testable import GuidedDecoding

/// `patternProperties` and `propertyNames`: under the standard's language the constraint
/// accepts exactly what the definition admits; generation writes only names the schema asks
/// for, never a dead end, and the validator agrees with the standard.
@Suite struct MemberNameKeywordTests {
  static let extensions =
    #"{"type":"object","properties":{"name":{"type":"string"}},"patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":false}"#
  static let mixed =
    #"{"type":"object","patternProperties":{"^a":{"type":"integer"},"b$":{"minimum":0}},"additionalProperties":{"type":"string"}}"#
  static let named =
    #"{"type":"object","properties":{"a":{},"zz":{}},"propertyNames":{"enum":["a","b"]},"additionalProperties":{"type":"integer"}}"#
  static let short =
    #"{"type":"object","propertyNames":{"maxLength":3},"additionalProperties":{"type":"integer"}}"#

  @Test(arguments: [
    OutputCase(extensions, #"{"name":"n","x-a":1,"x-b":2}"#, true),
    OutputCase(extensions, #"{"x-a":"s"}"#, false),
    OutputCase(extensions, #"{"y":1}"#, false),
    // A declared name that matches a pattern takes both schemas.
    OutputCase(
      #"{"type":"object","properties":{"x-n":{"minimum":5}},"patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":false}"#,
      #"{"x-n":6}"#, true),
    OutputCase(
      #"{"type":"object","properties":{"x-n":{"minimum":5}},"patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":false}"#,
      #"{"x-n":3}"#, false),
    // A name matching two patterns takes both schemas; one matching none takes additionalProperties.
    OutputCase(mixed, #"{"ab":2}"#, true),
    OutputCase(mixed, #"{"ab":-1}"#, false),
    OutputCase(mixed, #"{"ab":2.5}"#, false),
    OutputCase(mixed, #"{"a":-1}"#, true),
    OutputCase(mixed, #"{"cb":0.5}"#, true),
    OutputCase(mixed, #"{"cb":-1}"#, false),
    OutputCase(mixed, #"{"c":"s"}"#, true),
    OutputCase(mixed, #"{"c":1}"#, false),
    OutputCase(named, #"{"a":1,"b":2}"#, true),
    OutputCase(named, #"{"zz":1}"#, false),
    OutputCase(named, #"{"c":1}"#, false),
    OutputCase(short, #"{"abc":1}"#, true),
    OutputCase(short, #"{"abcd":1}"#, false),
    OutputCase(#"{"type":"object","propertyNames":false}"#, #"{}"#, true),
    OutputCase(#"{"type":"object","propertyNames":false}"#, #"{"a":1}"#, false),
    OutputCase(#"{"type":"object","propertyNames":{"pattern":"^[a-z]+$"}}"#, #"{"ok":1}"#, true),
    OutputCase(#"{"type":"object","propertyNames":{"pattern":"^[a-z]+$"}}"#, #"{"No":1}"#, false),
  ])
  func standardLanguage(c: OutputCase) throws {
    try expectStandardMeaning(c)
  }

  /// Generation writes pattern members (the schema asks for them), but nothing for a default.
  @Test func generationWritesOnlyNamesTheSchemaAsksFor() throws {
    let patterned = try automaton(#"{"type":"object","patternProperties":{"^x-":{"type":"integer"}}}"#)
    #expect(patterned.accepts(#"{"x-a":1}"#))
    #expect(!patterned.allowsPrefix(#"{"y"#))
    let plain = try automaton(
      #"{"type":"object","properties":{"a":{"type":"integer"}},"propertyNames":{"maxLength":3}}"#)
    #expect(!plain.allowsPrefix(#"{"b"#))
  }

  /// A pattern that only a declared name matches leaves no undeclared kind to start.
  @Test func noDeadEndWhenOnlyDeclaredNamesMatch() throws {
    let a = try automaton(
      #"{"type":"object","properties":{"a":{"type":"integer"}},"patternProperties":{"^a$":{"type":"integer"}},"additionalProperties":false}"#
    )
    #expect(a.accepts(#"{"a":1}"#))
    #expect(a.allowsPrefix(#"{"a"#))
    #expect(!a.allowsPrefix(#"{"b"#))
  }

  @Test func allOfMergesPatternsOfParts() throws {
    let schema =
      #"{"type":"object","allOf":[{"patternProperties":{"^x":{"type":"string"}}},{"patternProperties":{"^x":{"maxLength":2}}}]}"#
    #expect(try automaton(schema, constraint: .standard).accepts(#"{"xa":"ab"}"#))
    #expect(try !automaton(schema, constraint: .standard).accepts(#"{"xa":"abc"}"#))
    #expect(try !automaton(schema, constraint: .standard).accepts(#"{"xa":1}"#))
  }

  @Test(arguments: [
    // The outer additionalProperties sees no pattern of the parts: merging would change it.
    (
      "allOf with 'patternProperties' and 'additionalProperties'",
      #"{"additionalProperties":false,"allOf":[{"patternProperties":{"^x":{}}}]}"#
    ),
    ("propertyNames (format)", #"{"type":"object","propertyNames":{"format":"email"}}"#),
    ("propertyNames (anyOf)", #"{"type":"object","propertyNames":{"anyOf":[{"const":"a"},{"maxLength":2}]}}"#),
  ])
  func refusedWithKeyword(keyword: String, schema: String) {
    expectRefused(schema, keyword: keyword)
  }

  @Test func invalidPatternIsRefused() {
    #expect(throws: SchemaError.self) {
      try JSONSchemaParser().parse(#"{"type":"object","patternProperties":{"(":{}}}"#)
    }
  }
}
