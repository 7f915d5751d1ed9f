import JSON
import Testing

@testable import GuidedDecoding

/// What generation writes where JSON Schema leaves the shape open: only declared members
/// unless the schema asks for more, and recursion to a bounded depth; checking values keeps
/// the standard's meaning.
@Suite struct GenerationShapeTests {
  static let open = #"{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}"#

  @Test func undeclaredMembersAreNotInvented() throws {
    let a = try automaton(Self.open)
    #expect(a.accepts(#"{"a":1}"#))
    #expect(!a.accepts(#"{"a":1,"b":"x"}"#))
    #expect(try automaton(#"{"type":"object"}"#).accepts("{}"))
    #expect(!(try automaton(#"{"type":"object"}"#).allowsPrefix(#"{""#)))
  }

  @Test(arguments: [
    // A schema of their own, or `true`: the schema asks for them.
    OutputCase(
      #"{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":{"type":"integer"}}"#,
      #"{"a":1,"b":2}"#, true),
    OutputCase(#"{"type":"object","additionalProperties":true}"#, #"{"b":[1]}"#, true),
    OutputCase(#"{"type":"object","additionalProperties":{}}"#, #"{"b":null}"#, true),
    // More members required than declared.
    OutputCase(#"{"type":"object","minProperties":1}"#, #"{"b":1}"#, true),
    OutputCase(#"{"type":"object","minProperties":1}"#, "{}", false),
    // A required name the properties do not describe.
    OutputCase(#"{"type":"object","required":["id"]}"#, #"{"id":7}"#, true),
    OutputCase(#"{"type":"object","required":["id"]}"#, #"{"id":7,"b":1}"#, false),
  ])
  func membersTheSchemaAsksForAreWritten(c: OutputCase) throws {
    #expect(try automaton(c.schema).accepts(c.text) == c.accepted)
  }

  @Test func anOptionWritesWhatTheStandardAllows() throws {
    let options = ConstraintOptions(generatesUndeclaredProperties: true)
    #expect(try automaton(Self.open, constraint: options).accepts(#"{"a":1,"b":"x"}"#))
    #expect(try automaton(Self.open, constraint: .standard).accepts(#"{"a":1,"b":"x"}"#))
  }

  @Test func validationKeepsTheStandardsMeaning() throws {
    let document = try JSONSchemaParser().parse(Self.open)
    let validator = SchemaValidator(definitions: document.definitions)
    #expect(try validator.validate(JSONValue(parsing: #"{"a":1,"b":"x"}"#), against: document.root))
    #expect(try !validator.validate(JSONValue(parsing: #"{"b":"x"}"#), against: document.root))
  }

  static let list =
    ##"{"$ref":"#/$defs/cell","$defs":{"cell":{"type":"object","properties":{"next":{"$ref":"#/$defs/cell"}},"additionalProperties":false}}}"##

  /// `{"next":` written `depth` times, then `{}` and the closing braces.
  static func chain(_ depth: Int) -> String {
    String(repeating: #"{"next":"#, count: depth) + "{}" + String(repeating: "}", count: depth)
  }

  @Test func recursionNestsAtMostTheLimit() throws {
    let limited = try automaton(Self.list, constraint: .init(maximumRecursion: 3))
    // The root's reference enters the definition once; each `next` once more.
    #expect(limited.accepts(Self.chain(2)))
    #expect(!limited.accepts(Self.chain(3)))
    #expect(try automaton(Self.list).accepts(Self.chain(9)))
    #expect(try !automaton(Self.list).accepts(Self.chain(10)))
    #expect(try automaton(Self.list, constraint: .standard).accepts(Self.chain(40)))
  }

  @Test func freeValuesNestAtMostTheLimit() throws {
    let nested = { (depth: Int) in String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) }
    let limited = try automaton("{}", constraint: .init(maximumRecursion: 2))
    #expect(limited.accepts(nested(2)))
    #expect(!limited.accepts(nested(3)))
    #expect(limited.accepts(#"{"a":{"b":true}}"#))
    #expect(!limited.accepts(#"{"a":{"b":{}}}"#))
    #expect(try automaton("{}", constraint: .standard).accepts(nested(30)))
  }

  @Test func aSchemaThatNeedsDeeperRecursionIsCompiledWithoutTheLimit() throws {
    // Every value enters the definition at least once, which a limit of 0 forbids.
    let schema =
      ##"{"$ref":"#/$defs/a","$defs":{"a":{"anyOf":[{"type":"null"},{"type":"array","items":{"$ref":"#/$defs/a"}}]}}}"##
    let a = try automaton(schema, constraint: .init(maximumRecursion: 0))
    #expect(a.accepts("[[null]]"))
  }

  /// The closing reserve of a deep output is one lookup, and every state on the completion
  /// knows its own.
  @Test func closingLengthMatchesTheClosingBytes() throws {
    var schema = #"{"type":"string"}"#
    for _ in 0..<50 {
      schema = #"{"type":"object","properties":{"n":"# + schema + #"},"required":["n"],"additionalProperties":false}"#
    }
    let a = try automaton(schema)
    let deep = try #require(
      a.next(a.initialState, bytes: Array((String(repeating: #"{"n":"#, count: 50) + #""ab"#).utf8)))
    #expect(a.depth(of: deep) == 51)
    let closing = try #require(a.closingBytes(from: deep))
    #expect(String(decoding: closing, as: UTF8.self) == "\"" + String(repeating: "}", count: 50))
    #expect(a.closingLength(from: deep) == closing.count)
    let after = try #require(a.next(deep, bytes: closing.prefix(10)))
    #expect(a.closingLength(from: after) == closing.count - 10)
  }
}
