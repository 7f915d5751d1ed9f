import JSON
import Testing

@testable import GuidedDecoding

/// Generates with random choices among the allowed tokens, then closes: every output must
/// parse as JSON and validate against the schema, and no state may be a dead end.
@Suite struct RandomGenerationTests {
  /// A small deterministic generator (xorshift), so failures reproduce.
  struct Random {
    var state: UInt64
    mutating func next(below n: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(n))
    }
  }

  @Test(arguments: [
    ConstraintAutomatonTests.person, ConstraintAutomatonTests.union, ConstraintAutomatonTests.tree,
    ConstraintAutomatonTests.open, ConstraintAutomatonTests.counted,
    #"{"type":"string","pattern":"^[A-Z]{2}-\\d{2,4}$"}"#,
    #"{"type":"number","minimum":-2.5,"maximum":7.25}"#,
    #"{"type":"integer","exclusiveMinimum":100,"maximum":250}"#,
    #"{"type":"array","items":{"type":"string","format":"date"},"minItems":1,"maxItems":3}"#,
    #"{"type":"object","properties":{"e":{"enum":["a","b",null,3]},"s":{"type":"string","maxLength":5}},"required":["e"],"additionalProperties":false}"#,
    MemberNameKeywordTests.extensions, MemberNameKeywordTests.mixed, MemberNameKeywordTests.named,
    MemberNameKeywordTests.short, ContainsTests.atLeastOne, ContainsTests.twoOrThree, ContainsTests.bounded,
    ContainsTests.tuple,
  ])
  func randomOutputsAreValid(schema: String) throws {
    let document = try JSONSchemaParser().parse(schema)
    let automaton = try ConstraintAutomaton(document)
    let vocabulary = smallVocabulary()
    let matcher = TokenMatcher(automaton: automaton, vocabulary: vocabulary)
    var random = Random(state: 0x9E37_79B9_7F4A_7C15)
    for _ in 0..<40 {
      matcher.reset()
      var output: [UInt8] = []
      let budget = 1 + random.next(below: 30)
      for _ in 0..<budget {
        let allowed = matcher.allowedTokens().allowedTokens.filter { !vocabulary.endOfSequenceTokens.contains($0) }
        if allowed.isEmpty {
          #expect(matcher.isComplete, "dead end after \(String(decoding: output, as: UTF8.self))")
          break
        }
        let token = allowed[random.next(below: allowed.count)]
        try matcher.accept(token: token)
        output += vocabulary.tokens[token]
      }
      let closing = try #require(matcher.closingBytes())
      try matcher.accept(bytes: closing)
      output += closing
      #expect(matcher.isComplete)
      let text = String(decoding: output, as: UTF8.self)
      let value = try JSONValue(parsing: output)
      #expect(try SchemaValidator(document: document).validate(value, against: document.root), "\(text)")
    }
  }
}
