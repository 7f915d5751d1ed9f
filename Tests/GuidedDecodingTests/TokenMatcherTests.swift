import Testing

@testable import GuidedDecoding

@Suite struct TokenMatcherTests {
  let vocabulary = smallVocabulary()

  /// The mask must equal the brute-force answer: each token's bytes walked alone.
  func expectMaskMatchesBruteForce(_ c: TokenMatcher, sourceLocation: SourceLocation = #_sourceLocation) {
    let mask = c.allowedTokens()
    for id in 0..<vocabulary.count {
      let expected: Bool
      if vocabulary.endOfSequenceTokens.contains(id) {
        expected = c.isComplete
      } else {
        expected = c.automaton.next(c.state, bytes: vocabulary.tokens[id]) != nil
      }
      #expect(mask.contains(id) == expected, "token \(id) \(vocabulary.tokens[id])", sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: [
    ConstraintAutomatonTests.person, ConstraintAutomatonTests.union, ConstraintAutomatonTests.tree,
    #"{"type":"string","maxLength":4}"#, #"{"type":"string","pattern":"^[a-z]*日?$"}"#,
    #"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#,
  ])
  func maskEqualsBruteForceAlongAValidOutput(schema: String) throws {
    let a = try automaton(schema)
    let c = TokenMatcher(automaton: a, vocabulary: vocabulary)
    // Follow a completion, checking the mask at every step.
    let text = try #require(a.closingBytes(from: a.initialState))
    let tokens = try #require(vocabulary.greedyTokenize(text))
    for t in tokens {
      expectMaskMatchesBruteForce(c)
      try c.accept(token: t)
    }
    expectMaskMatchesBruteForce(c)
    #expect(c.isComplete)
  }

  @Test func tokensSpanningStructureBoundaries() throws {
    let a = try automaton(
      #"{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name","age"],"additionalProperties":false}"#
    )
    let c = TokenMatcher(automaton: a, vocabulary: vocabulary)
    let id = { (s: String) in try #require(self.vocabulary.tokens.firstIndex(of: Array(s.utf8))) }
    try c.accept(token: id("{\""))
    try c.accept(token: id("name"))
    let mask = c.allowedTokens()
    #expect(mask.contains(try id("\":\"")))  // closes the key and opens the value at once
    #expect(!mask.contains(try id("\",\"")))
    try c.accept(token: id("\":\""))
    try c.accept(token: id("hello"))
    #expect(c.allowedTokens().contains(try id("\",\"")))
    try c.accept(token: id("\",\""))
    #expect(String(decoding: c.forcedBytes(), as: UTF8.self) == "age\":")
    try c.accept(bytes: Array("age\":".utf8))
    #expect(!c.allowedTokens().contains(try id("\"name")))
    try c.accept(token: id("12"))
    #expect(!c.isComplete)
    try c.accept(token: id("}"))
    #expect(c.isComplete)
    #expect(c.allowedTokens().contains(vocabulary.endOfSequenceTokens[0]))
    try c.accept(token: vocabulary.endOfSequenceTokens[0])
    #expect(c.allowedTokens().isEmpty)
  }

  @Test func multiByteCharactersSplitAcrossTokens() throws {
    let a = try automaton(#"{"type":"string","maxLength":1}"#)
    let c = TokenMatcher(automaton: a, vocabulary: vocabulary)
    try c.accept(token: 34)  // "
    let lead = vocabulary.count - 3
    let rest = vocabulary.count - 2
    #expect(c.allowedTokens().contains(lead))
    #expect(!c.allowedTokens().contains(try #require(vocabulary.tokens.firstIndex(of: Array("日本".utf8)))))
    try c.accept(token: lead)
    // Only continuation bytes may follow, alone or as the token that finishes 日.
    #expect(c.allowedTokens().allowedTokens == Array(0x80...0xBF) + [rest])
    try c.accept(token: rest)
    #expect(c.allowedTokens().allowedTokens == [34])
  }

  @Test func disallowedTokensAreRefusedAndStateKept() throws {
    let c = TokenMatcher(automaton: try automaton(#"{"type":"integer"}"#), vocabulary: vocabulary)
    #expect(throws: ConstraintError.self) { try c.accept(token: 34) }
    #expect(throws: ConstraintError.self) { try c.accept(token: vocabulary.endOfSequenceTokens[0]) }
    try c.accept(token: 49)  // "1"
    #expect(c.isComplete)
  }

  @Test func specialTokensAreNeverAllowedInText() throws {
    var tokens = smallVocabulary().tokens
    tokens.append(Array("<|im_end|>".utf8))
    let v = Vocabulary(tokens: tokens, specialTokens: [tokens.count - 1], endOfSequenceTokens: [tokens.count - 2])
    let c = TokenMatcher(automaton: try automaton(#"{"type":"string"}"#), vocabulary: v)
    try c.accept(token: 34)
    #expect(!c.allowedTokens().contains(tokens.count - 1))
  }

  @Test func tokenMaskBasics() {
    var m = TokenMask(count: 130)
    #expect(m.isEmpty)
    m.insert(0)
    m.insert(64)
    m.insert(129)
    #expect(m.allowedTokens == [0, 64, 129])
    #expect(m.allowedCount == 3)
    m.remove(64)
    #expect(!m.contains(64))
    #expect(!m.contains(500))
  }
}
