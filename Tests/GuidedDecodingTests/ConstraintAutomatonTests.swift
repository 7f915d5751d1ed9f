import Testing

@testable import GuidedDecoding

/// Each case: a schema, an output, and whether the constraint must accept it.
struct OutputCase: CustomTestStringConvertible, Sendable {
  var schema: String
  var text: String
  var accepted: Bool
  var testDescription: String { "\(accepted ? "accepts" : "rejects") \(text)" }
  init(_ schema: String, _ text: String, _ accepted: Bool) {
    self.schema = schema
    self.text = text
    self.accepted = accepted
  }
}

@Suite struct ConstraintAutomatonTests {
  static let person =
    #"{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"nick":{"type":"string"}},"required":["name","age"],"additionalProperties":false}"#

  @Test(arguments: [
    OutputCase(#"{"enum":["red","green"]}"#, #""red""#, true),
    OutputCase(#"{"enum":["red","green"]}"#, #""blue""#, false),
    OutputCase(#"{"enum":["red",1,null,{"a":[1]}]}"#, #"{"a":[1]}"#, true),
    OutputCase(#"{"enum":["red",1,null]}"#, "null", true),
    OutputCase(#"{"const":"fixed"}"#, #""fixed""#, true),
    OutputCase(#"{"const":"fixed"}"#, #""fixe""#, false),
    OutputCase(#"{"const":{"k":1.50}}"#, #"{"k":1.5}"#, true),
    OutputCase(#"{"type":"boolean"}"#, "false", true),
    // JSON compares strings by scalars: precomposed "ä" is not "a" + U+0308.
    OutputCase("{\"const\":\"\u{E4}\"}", "\"a\u{308}\"", false),
    OutputCase(#"{"type":"boolean"}"#, "0", false),
    OutputCase(#"{"type":"null"}"#, "null", true),
  ])
  func enumsConstantsAndLiterals(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  @Test(arguments: [
    OutputCase(#"{"type":"string","pattern":"^[A-Z]{3}-\\d+$"}"#, #""ABC-12""#, true),
    OutputCase(#"{"type":"string","pattern":"^[A-Z]{3}-\\d+$"}"#, #""AB-12""#, false),
    OutputCase(#"{"type":"string","pattern":"^[A-Z]{3}-\\d+$"}"#, #""ABC-""#, false),
    // The pattern applies to the decoded value: `\u0041` is "A", `\n` is a newline.
    OutputCase(#"{"type":"string","pattern":"^A$"}"#, #""\u0041""#, true),
    OutputCase(#"{"type":"string","pattern":"^a\nb$"}"#, #""a\nb""#, true),
    OutputCase(#"{"type":"string","pattern":"cat"}"#, #""concatenate""#, true),
    OutputCase(#"{"type":"string","minLength":2,"maxLength":3}"#, #""ab""#, true),
    OutputCase(#"{"type":"string","minLength":2,"maxLength":3}"#, #""a""#, false),
    OutputCase(#"{"type":"string","minLength":2,"maxLength":3}"#, #""abcd""#, false),
    // Lengths count characters, not bytes or escapes.
    OutputCase(#"{"type":"string","maxLength":2}"#, #""日本""#, true),
    OutputCase(#"{"type":"string","maxLength":2}"#, #""\"\\""#, true),
    OutputCase(#"{"type":"string","format":"date"}"#, #""2024-02-29""#, true),
    OutputCase(#"{"type":"string","format":"date"}"#, #""2024-13-01""#, false),
    OutputCase(#"{"type":"string","format":"uuid"}"#, #""123e4567-e89b-12d3-a456-426614174000""#, true),
    OutputCase(#"{"type":"string","format":"date-time"}"#, #""2024-01-01T00:00:00Z""#, true),
    OutputCase(#"{"type":"string","format":"email"}"#, #""no-at-sign""#, false),
  ])
  func stringGuides(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  @Test(arguments: [
    OutputCase(#"{"type":"string"}"#, #""a\"b\\c\/d\n\t\u00e9""#, true),
    OutputCase(#"{"type":"string"}"#, "\"tab\there\"", false),  // raw control character
    OutputCase(#"{"type":"string"}"#, #""bad \x escape""#, false),
    OutputCase(#"{"type":"string"}"#, #""\u12""#, false),
    OutputCase(#"{"type":"string"}"#, #""\ud83d\ude00""#, false),  // surrogates must be raw UTF-8
    OutputCase(#"{"type":"string"}"#, "\"😀 é\"", true),
    OutputCase(#"{"type":"string"}"#, "\"unterminated", false),
  ])
  func stringEscaping(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  @Test func invalidUTF8IsRejected() throws {
    let a = try automaton(#"{"type":"string"}"#)
    #expect(a.next(a.initialState, bytes: [0x22, 0xC0, 0x80]) == nil)  // overlong
    #expect(a.next(a.initialState, bytes: [0x22, 0xED, 0xA0]) == nil)  // surrogate
    #expect(a.next(a.initialState, bytes: [0x22, 0xE6, 0x97]) != nil)  // partial is fine
    #expect(a.next(a.initialState, bytes: [0x22, 0xE6, 0x22]) == nil)
  }

  @Test(arguments: [
    OutputCase(#"{"type":"integer","minimum":-5,"maximum":120}"#, "120", true),
    OutputCase(#"{"type":"integer","minimum":-5,"maximum":120}"#, "121", false),
    OutputCase(#"{"type":"integer","minimum":-5,"maximum":120}"#, "-5", true),
    OutputCase(#"{"type":"integer","minimum":-5,"maximum":120}"#, "-6", false),
    OutputCase(#"{"type":"integer","minimum":-5,"maximum":120}"#, "1200", false),
    OutputCase(#"{"type":"integer","minimum":-5,"maximum":120}"#, "007", false),
    OutputCase(#"{"type":"integer","minimum":-5,"maximum":120}"#, "1.0", false),
    OutputCase(#"{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":10}"#, "0", false),
    OutputCase(#"{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":10}"#, "9", true),
    OutputCase(#"{"type":"integer","minimum":1.5,"maximum":2.5}"#, "2", true),
    OutputCase(#"{"type":"integer","minimum":12345678901234567890}"#, "12345678901234567891", true),
    OutputCase(#"{"type":"integer","minimum":12345678901234567890}"#, "12345678901234567889", false),
    OutputCase(#"{"type":"number","minimum":0.1,"maximum":0.2}"#, "0.15", true),
    OutputCase(#"{"type":"number","minimum":0.1,"maximum":0.2}"#, "0.2", true),
    OutputCase(#"{"type":"number","minimum":0.1,"maximum":0.2}"#, "0.2000001", false),
    OutputCase(#"{"type":"number","minimum":0.1,"maximum":0.2}"#, "0.09999", false),
    OutputCase(#"{"type":"number","exclusiveMaximum":1}"#, "0.9999", true),
    OutputCase(#"{"type":"number","exclusiveMaximum":1}"#, "1.0", false),
    OutputCase(#"{"type":"number","maximum":-1}"#, "-1.5", true),
    OutputCase(#"{"type":"number","maximum":-1}"#, "-0.5", false),
    OutputCase(#"{"type":"number"}"#, "-1.5e+10", true),
    OutputCase(#"{"type":"number"}"#, "1.", false),
    OutputCase(#"{"type":"number"}"#, "+1", false),
  ])
  func numberBounds(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  @Test func numberPrefixesThatCannotFitAreBlockedEarly() throws {
    let a = try automaton(#"{"type":"integer","minimum":10,"maximum":20}"#)
    #expect(a.allowsPrefix("1"))
    #expect(a.allowsPrefix("2"))
    #expect(!a.allowsPrefix("3"))
    #expect(!a.allowsPrefix("21"))
    #expect(!a.allowsPrefix("-"))
    // Adding digits reaches [D·10^k, (D+1)·10^k), not everything above D·10.
    let b = try automaton(#"{"type":"integer","exclusiveMinimum":100,"maximum":250}"#)
    #expect(!b.allowsPrefix("3"))
    #expect(b.allowsPrefix("10"))
    #expect(!b.allowsPrefix("100"))
    #expect(b.allowsPrefix("101"))
    let c = try automaton(#"{"type":"number","minimum":0.5,"maximum":40}"#)
    #expect(!c.allowsPrefix("41"))
    #expect(!c.allowsPrefix("400"))
    #expect(c.allowsPrefix("40."))
    #expect(!c.allowsPrefix("40.1"))
    #expect(!c.allowsPrefix("0.4"))
  }

  @Test(arguments: [
    OutputCase(#"{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":3}"#, "[1,2,3]", true),
    OutputCase(#"{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":3}"#, "[1,2,3,4]", false),
    OutputCase(#"{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":3}"#, "[]", false),
    OutputCase(#"{"type":"array","items":{"type":"integer"}}"#, "[1,\"a\"]", false),
    OutputCase(
      #"{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}"#, #"["a",1]"#, true),
    OutputCase(
      #"{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}"#, #"["a",1,2]"#, false),
    OutputCase(
      #"{"type":"array","items":[{"type":"string"}],"additionalItems":{"type":"integer"}}"#, #"["a",1,2]"#, true),
    OutputCase(#"{"type":"array"}"#, #"[1,"x",{"a":[null]}]"#, true),
    OutputCase(#"{"type":"array","items":{"type":"integer"}}"#, "[1,]", false),
  ])
  func arrays(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  @Test(arguments: [
    OutputCase(person, #"{"name":"Al","age":3}"#, true),
    OutputCase(person, #"{"name":"Al","age":3,"nick":"A"}"#, true),
    // Declaration order: keys in another order are not generated.
    OutputCase(person, #"{"age":3,"name":"Al"}"#, false),
    OutputCase(person, #"{"name":"Al","nick":"A","age":3}"#, false),
    OutputCase(person, #"{"name":"Al"}"#, false),
    OutputCase(person, #"{"name":"Al","age":3,"extra":1}"#, false),
    OutputCase(person, #"{"name":"Al","age":3,}"#, false),
    // Compact form only.
    OutputCase(person, #"{"name": "Al","age":3}"#, false),
  ])
  func objectsInDeclarationOrder(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  static let open = #"{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}"#
  @Test(arguments: [
    OutputCase(open, #"{"a":1,"b":"x","c":[1]}"#, true),
    OutputCase(open, #"{"a":1,"a":2}"#, false),  // an extra key may not reuse a declared name
    OutputCase(open, #"{"a":1,"\u0061":2}"#, false),  // not even escaped
    OutputCase(#"{"type":"object","additionalProperties":{"type":"integer"}}"#, #"{"x":1,"y":2}"#, true),
    OutputCase(#"{"type":"object","additionalProperties":{"type":"integer"}}"#, #"{"x":"1"}"#, false),
  ])
  func additionalPropertiesAsTheStandardSays(c: OutputCase) throws {
    #expect(try automaton(c.schema, constraint: .standard).accepts(c.text) == c.accepted)
  }

  @Test func closedObjectsOption() throws {
    let a = try automaton(Self.open, options: .init(closesObjectsByDefault: true))
    #expect(a.accepts(#"{"a":1}"#))
    #expect(!a.accepts(#"{"a":1,"b":2}"#))
  }

  static let union =
    #"{"anyOf":[{"type":"object","properties":{"kind":{"const":"circle"},"r":{"type":"number"}},"required":["kind","r"],"additionalProperties":false},{"type":"object","properties":{"kind":{"const":"square"},"side":{"type":"number"}},"required":["kind","side"],"additionalProperties":false},{"type":"null"}]}"#
  @Test(arguments: [
    OutputCase(union, #"{"kind":"circle","r":1}"#, true),
    OutputCase(union, #"{"kind":"square","side":2}"#, true),
    OutputCase(union, #"{"kind":"square","r":2}"#, false),
    OutputCase(union, "null", true),
    OutputCase(
      #"{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false}},"required":["o"],"additionalProperties":false}"#,
      #"{"o":{"x":true}}"#, true),
    OutputCase(
      #"{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false}},"required":["o"],"additionalProperties":false}"#,
      #"{"o":{}}"#, false),
  ])
  func anyOfAndNesting(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  static let tree =
    ##"{"$ref":"#/$defs/node","$defs":{"node":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["v"],"additionalProperties":false}}}"##
  @Test(arguments: [
    OutputCase(tree, #"{"v":1}"#, true),
    OutputCase(tree, #"{"v":1,"kids":[{"v":2,"kids":[{"v":3}]},{"v":4}]}"#, true),
    OutputCase(tree, #"{"v":1,"kids":[{"v":2,"kids":[{}]}]}"#, false),
    OutputCase(
      ##"{"type":"array","items":{"$ref":"#item"},"$defs":{"i":{"$anchor":"item","type":"integer"}}}"##, "[1,2]", true),
    OutputCase(
      ##"{"type":"array","items":{"$ref":"#item"},"$defs":{"i":{"$anchor":"item","type":"integer"}}}"##, "[\"a\"]",
      false),
  ])
  func recursionThroughReferences(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  static let counted =
    #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}},"minProperties":2,"maxProperties":2,"additionalProperties":false}"#
  @Test(arguments: [
    OutputCase(counted, #"{"a":1,"c":2}"#, true),
    OutputCase(counted, #"{"a":1}"#, false),
    OutputCase(counted, #"{"a":1,"b":2,"c":3}"#, false),
    OutputCase(#"{"allOf":[{"type":"integer","minimum":0},{"maximum":10}]}"#, "10", true),
    OutputCase(#"{"allOf":[{"type":"integer","minimum":0},{"maximum":10}]}"#, "11", false),
    OutputCase(
      #"{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"required":["b"]}]}"#,
      #"{"a":"x","b":1}"#, true),
    OutputCase(
      #"{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"required":["b"]}]}"#,
      #"{"a":"x"}"#, false),
    // Constraints beside anyOf hold in every branch.
    OutputCase(#"{"type":"string","maxLength":3,"anyOf":[{"pattern":"^a"},{"pattern":"^b"}]}"#, #""abc""#, true),
    OutputCase(#"{"type":"string","maxLength":3,"anyOf":[{"pattern":"^a"},{"pattern":"^b"}]}"#, #""abcd""#, false),
    // Draft 7: keywords beside $ref are ignored; 2020-12: they apply too.
    OutputCase(
      ##"{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/s","maxLength":1,"definitions":{"s":{"type":"string"}}}"##,
      #""abc""#, true),
    OutputCase(##"{"$ref":"#/$defs/s","maxLength":1,"$defs":{"s":{"type":"string"}}}"##, #""abc""#, false),
  ])
  func combinedConstraints(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  @Test func unsatisfiableSchemasAreErrors() {
    #expect(throws: SchemaError.self) { try automaton(#"{"type":"integer","minimum":5,"maximum":4}"#) }
    #expect(throws: SchemaError.self) {
      try automaton(
        ##"{"$ref":"#/$defs/a","$defs":{"a":{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"required":["a"]}}}"##
      )
    }
  }

  @Test func unproductiveOptionalBranchesArePruned() throws {
    // "b" can never be completed, so it must not even be started.
    let a = try automaton(
      #"{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer","minimum":3,"maximum":2}},"required":["a"],"additionalProperties":false}"#
    )
    #expect(!a.allowsPrefix(#"{"a":1,"#))
    #expect(a.accepts(#"{"a":1}"#))
  }

  @Test func forcedBytesJumpForward() throws {
    let a = try automaton(Self.person)
    #expect(String(decoding: a.forcedBytes(from: a.initialState), as: UTF8.self) == #"{"name":""#)
    let s = try #require(a.next(a.initialState, bytes: Array(#"{"name":"Al""#.utf8)))
    #expect(String(decoding: a.forcedBytes(from: s), as: UTF8.self) == #","age":"#)
    let u = try automaton(Self.union)
    #expect(u.forcedBytes(from: u.initialState).isEmpty)  // `{` or `n`: a real choice
    let after = try #require(u.next(u.initialState, bytes: Array(#"{"kind":"sq"#.utf8)))
    #expect(String(decoding: u.forcedBytes(from: after), as: UTF8.self) == #"uare","side":"#)
  }

  @Test(arguments: [
    (person, #"{"name":"Al"#, #"","age":0}"#),
    (person, #"{"name":"Al","age":12"#, "}"),
    (tree, #"{"v":1,"kids":[{"v":2,"kids":["#, "]}]}"),
    (#"{"type":"string","minLength":3}"#, "\"a", "aa\""),
    (#"{"type":"array","items":{"type":"integer"},"minItems":2}"#, "[", "0,0]"),
    // A pattern with a long minimum length: answered per pattern state, not by search.
    (#"{"type":"string","pattern":"^([a-z][0-9])+$","minLength":6}"#, "\"a", "0a0a0\""),
  ])
  func closingBytesCompleteValidly(schema: String, prefix: String, expected: String) throws {
    let a = try automaton(schema)
    let s = try #require(a.next(a.initialState, bytes: Array(prefix.utf8)))
    let closing = try #require(a.closingBytes(from: s))
    #expect(String(decoding: closing, as: UTF8.self) == expected)
    #expect(a.next(s, bytes: closing).map(a.isComplete) == true)
  }

  @Test func closingBytesRespectPatterns() throws {
    let a = try automaton(#"{"type":"string","pattern":"^[A-Z]{2}-\\d{2}$"}"#)
    let s = try #require(a.next(a.initialState, bytes: Array("\"Q".utf8)))
    let closing = try #require(a.closingBytes(from: s))
    #expect(a.next(s, bytes: closing).map(a.isComplete) == true)
    #expect(closing.count == 5)
  }
}
