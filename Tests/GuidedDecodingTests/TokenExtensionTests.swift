import Testing

@testable import GuidedDecoding

/// `TokenMatcher.extensions(of:)` and `acceptExtension(of:by:)`: the longer tokens a model
/// may write in place of the last forced token (boundary healing).
@Suite struct TokenExtensionTests {
  /// The small test vocabulary with Qwen-like tokens that join a key's end to its value's start.
  let vocabulary: Vocabulary = {
    let small = smallVocabulary()
    let joined = ["\":[", "\":[\"", "\":[{\"", "\":[]"].map { Array($0.utf8) }
    let tokens = Array(small.tokens.dropLast()) + joined + [Array("<eos>".utf8)]
    return Vocabulary(tokens: tokens, endOfSequenceTokens: [tokens.count - 1])
  }()
  static let tags =
    #"{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},"n":{"type":"integer"}},"required":["tags","n"],"additionalProperties":false}"#

  func id(_ text: String) throws -> Int {
    try #require(vocabulary.tokens.firstIndex(of: Array(text.utf8)))
  }

  /// The brute-force answer: every text token longer than `token` that starts with its bytes
  /// and whose remaining bytes the automaton accepts from the current state.
  func expectedExtensions(of token: Int, _ c: TokenMatcher) -> [Int] {
    let prefix = vocabulary.tokens[token]
    return vocabulary.tokens.indices.filter { other in
      let bytes = vocabulary.tokens[other]
      return vocabulary.kinds[other] == 0 && bytes.count > prefix.count && bytes.starts(with: prefix)
        && c.automaton.next(c.state, bytes: bytes[prefix.count...]) != nil
    }
  }

  @Test(arguments: [
    ConstraintAutomatonTests.person, ConstraintAutomatonTests.union, ConstraintAutomatonTests.tree, tags,
  ])
  func extensionsEqualBruteForceAlongAValidOutput(schema: String) throws {
    let a = try automaton(schema)
    let c = TokenMatcher(automaton: a, vocabulary: vocabulary)
    let text = try #require(a.closingBytes(from: a.initialState))
    var checked = 0
    // One byte at a time (single bytes are tokens 0...255), so most steps have extensions.
    for token in text.map(Int.init) {
      try c.accept(token: token)
      let expected = expectedExtensions(of: token, c)
      #expect(c.extensions(of: token) == expected, "after \(String(decoding: vocabulary.tokens[token], as: UTF8.self))")
      // Asked again, the cached answer is the same.
      #expect(c.extensions(of: token) == expected)
      checked += expected.isEmpty ? 0 : 1
    }
    #expect(checked > 0, "the output should pass at least one token that has extensions")
  }

  @Test func arrayOpeningExtendsIntoItsFirstElementOrItsEnd() throws {
    let c = TokenMatcher(automaton: try automaton(Self.tags), vocabulary: vocabulary)
    try c.accept(bytes: Array("{\"tags".utf8))
    try c.accept(token: id("\":["))
    // `":["` opens the first string and `":[]` ends an empty array; `":[{"` would be an object.
    #expect(Set(c.extensions(of: try id("\":["))) == [try id("\":[\""), try id("\":[]")])
  }

  @Test func acceptingAnExtensionEqualsAcceptingItInstead() throws {
    let a = try automaton(Self.tags)
    let healed = TokenMatcher(automaton: a, vocabulary: vocabulary)
    let direct = TokenMatcher(automaton: a, vocabulary: vocabulary)
    for c in [healed, direct] { try c.accept(bytes: Array("{\"tags".utf8)) }
    try healed.accept(token: id("\":["))
    try healed.acceptExtension(of: id("\":["), by: id("\":[\""))
    try direct.accept(token: id("\":[\""))
    #expect(healed.state == direct.state)
  }

  @Test func aTokenThatDoesNotExtendIsRefusedAndChangesNothing() throws {
    let c = TokenMatcher(automaton: try automaton(Self.tags), vocabulary: vocabulary)
    try c.accept(bytes: Array("{\"tags".utf8))
    try c.accept(token: id("\":["))
    let before = c.state
    // Not starting with `":[`; starting with it but an object where strings go; the same token.
    for other in [try id("\":\""), try id("\":[{\""), try id("\":[")] {
      #expect(throws: ConstraintError.tokenNotAllowed(other)) { try c.acceptExtension(of: try id("\":["), by: other) }
    }
    #expect(c.state == before)
  }
}
