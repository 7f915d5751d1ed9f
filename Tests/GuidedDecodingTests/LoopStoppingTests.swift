import Testing

@testable import GuidedDecoding

/// A generation caught in a loop is made to end the value the loop runs in, and nothing else
/// changes.
@Suite struct LoopStoppingTests {
  let vocabulary = smallVocabulary()

  func id(_ text: String) throws -> Int {
    try #require(vocabulary.tokens.firstIndex(of: Array(text.utf8)))
  }

  @Test func detectorFindsABlockRepeatedLongEnough() {
    var detector = RepetitionDetector(minimumRun: 12)
    var found: RepetitionDetector.Loop?
    for i in 0..<100 where found == nil {
      // A block of three tokens (7, 8, 9) at depth 2, after a few distinct tokens at depth 1.
      found = detector.append(i < 5 ? 100 + i : 7 + (i - 5) % 3, depth: i < 5 ? 1 : 2)
    }
    let loop = try? #require(found)
    #expect(loop?.period == 3)
    #expect(loop?.depth == 2)
    #expect(detector.tokens.count == 5 + 3 + 12)
  }

  @Test func varyingTokensAreNoLoop() {
    var detector = RepetitionDetector(minimumRun: 12)
    for i in 0..<500 { #expect(detector.append(i % 97 * 31 % 89, depth: 1) == nil || i < 89 * 3) }
  }

  @Test func aRepeatingStringIsEnded() throws {
    let a = try automaton(
      #"{"type":"object","properties":{"s":{"type":"string"}},"required":["s"],"additionalProperties":false}"#)
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 12)
    try matcher.accept(bytes: Array(#"{"s":""#.utf8))
    let ab = try id("ab")
    var steps = 0
    while !matcher.isEndingLoop, steps < 40 {
      #expect(matcher.allowedTokens().contains(ab))
      try matcher.accept(token: ab)
      steps += 1
    }
    #expect(matcher.isEndingLoop)
    #expect(steps == 13)
    let allowed = matcher.allowedTokens()
    #expect(!allowed.contains(ab))
    #expect(allowed.contains(34))  // "
    #expect(allowed.contains(try id("\"}")))
    #expect(!matcher.allows(token: ab))
    try matcher.accept(token: try id("\"}"))
    #expect(matcher.isComplete)
    #expect(!matcher.isEndingLoop)
  }

  @Test func aRepeatingArrayIsEndedAtAnItemBoundary() throws {
    let a = try automaton(#"{"type":"array","items":{"type":"string"}}"#)
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 12)
    try matcher.accept(token: try id("[\""))
    // `red","` again and again: each item the same.
    var repeats = 0
    while !matcher.isEndingLoop, repeats < 40 {
      try matcher.accept(token: try id("red"))
      if matcher.isEndingLoop { break }
      try matcher.accept(token: try id("\",\""))
      repeats += 1
    }
    #expect(matcher.isEndingLoop)
    // Ending this item and opening the next in one token is no longer allowed.
    try matcher.accept(token: try id("red"))
    #expect(!matcher.allows(token: try id("\",\"")))
    // Inside an item the string may go on; at the item's end only `]` may follow.
    #expect(matcher.allowedTokens().contains(try id("red")))
    try matcher.accept(token: try id("red"))
    try matcher.accept(token: 34)
    #expect(matcher.allowedTokens().allowedTokens == [93])  // ]
    try matcher.accept(token: 93)
    #expect(matcher.isComplete)
  }

  @Test func aRepeatingArrayOfObjectsIsEndedEvenWhereOneTokenEndsAnItemAndOpensTheNext() throws {
    let a = try automaton(
      #"{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}}"#
    )
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 12)
    try matcher.accept(token: 91)  // [
    try matcher.accept(token: try id("{\""))
    // `name":"red"},{"` again and again; `"},{"` never rests at the array's level.
    let cycle = [try id("name"), try id("\":\""), try id("red"), try id("\"},{\"")]
    var step = 0
    while !matcher.isEndingLoop, step < 80 {
      try matcher.accept(token: cycle[step % 4])
      step += 1
    }
    #expect(matcher.isEndingLoop)
    while step % 4 != 3 {
      try matcher.accept(token: cycle[step % 4])
      step += 1
    }
    let allowed = matcher.allowedTokens()
    #expect(!allowed.contains(cycle[3]))
    #expect(!matcher.allows(token: cycle[3]))
    #expect(allowed.contains(try id("\"}")))
    #expect(allowed.contains(try id("red")))  // the string itself may go on
    try matcher.accept(token: try id("\"}"))
    #expect(matcher.allowedTokens().allowedTokens == [93])  // ]
    try matcher.accept(token: 93)
    #expect(matcher.isComplete)
  }

  @Test func aValueThatMustGoOnGoesOn() throws {
    let a = try automaton(#"{"type":"array","items":{"const":1},"minItems":40}"#)
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 12)
    try matcher.accept(token: 91)  // [
    for _ in 0..<20 {
      try matcher.accept(token: 49)  // 1
      try matcher.accept(token: 44)  // ,
    }
    try matcher.accept(token: 49)
    #expect(matcher.isEndingLoop)
    #expect(matcher.allowedTokens().contains(44))  // `]` is not allowed yet, so nothing is restricted
  }

  /// An array of `{"n": integer}` items, which `countingItems` fills.
  let countingSchema =
    #"{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}}"#

  /// Items that are the same but for their numbers, `{"n":10},{"n":11},…` counting up, until
  /// `limit` or until a loop is being ended; the output then stands after an item.
  /// - Returns: the items written.
  func countingItems(_ matcher: TokenMatcher, upTo limit: Int) throws -> Int {
    try matcher.accept(token: 91)  // [
    var written = 0
    for n in 10..<limit {
      if written > 0 { try matcher.accept(token: 44) }  // ,
      try matcher.accept(token: try id("{\""))
      try matcher.accept(token: try id("n"))
      try matcher.accept(token: try id("\":"))
      for digit in String(n).utf8 { try matcher.accept(token: Int(digit)) }
      try matcher.accept(token: 125)  // }
      written += 1
      if matcher.isEndingLoop { break }
    }
    return written
  }

  @Test func itemsThatDifferOnlyInTheirNumbersAreEndedAfterALongerRun() throws {
    let a = try automaton(countingSchema)
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 12)
    let written = try countingItems(matcher, upTo: 99)
    #expect(matcher.isEndingLoop)
    // Seven shapes an item (`{"`, `n`, `":`, a number, `}`, `,`): an exact loop would have been
    // found after 12 tokens; a shape loop needs 4 x 12 = 48, past the eighth item.
    #expect(written >= 8)
    #expect(written < 15)
    #expect(matcher.allowedTokens().allowedTokens == [93])  // ]
    try matcher.accept(token: 93)
    #expect(matcher.isComplete)
  }

  @Test func numbersThatNeverRepeatTheirShapeLongEnoughAreNoLoop() throws {
    let a = try automaton(countingSchema)
    // With a long run the same items are content.
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 64)
    #expect(try countingItems(matcher, upTo: 40) == 30)
    #expect(!matcher.isEndingLoop)
  }

  @Test func anArrayOfNumbersIsEndedWhereALoneCommaWouldEndANumberAndGoOn() throws {
    let a = try automaton(#"{"type":"array","items":{"type":"integer"}}"#)
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 12)
    try matcher.accept(token: 91)  // [
    var n = 10
    var afterComma = false
    while !matcher.isEndingLoop, n < 99 {
      for digit in String(n).utf8 { try matcher.accept(token: Int(digit)) }
      afterComma = !matcher.isEndingLoop
      if afterComma { try matcher.accept(token: 44) }  // ,
      n += 1
    }
    #expect(matcher.isEndingLoop)
    if afterComma { try matcher.accept(token: 52) }  // 4: a number has begun
    // Inside the number: it may go on or end the array; a lone `,` would end it and go on.
    #expect(matcher.allows(token: 50))  // 2
    #expect(matcher.allows(token: 93))  // ]
    #expect(!matcher.allows(token: 44))
    try matcher.accept(token: 93)
    #expect(matcher.isComplete)
  }

  @Test func aNumberWhoseDigitsRepeatIsEnded() throws {
    let a = try automaton(#"{"type":"array","items":{"type":"integer"}}"#)
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 12)
    try matcher.accept(token: 91)  // [
    try matcher.accept(token: 49)  // 1
    var zeros = 0
    while !matcher.isEndingLoop, zeros < 40 {
      try matcher.accept(token: 48)  // 0
      zeros += 1
    }
    #expect(matcher.isEndingLoop)
    #expect(zeros < 40)
    // The number may only end; what follows it is free again.
    #expect(!matcher.allows(token: 48))
    #expect(matcher.allows(token: 44))  // ,
    #expect(matcher.allows(token: 93))  // ]
    try matcher.accept(token: 44)
    #expect(!matcher.isEndingLoop)
    #expect(matcher.allows(token: 48))
  }

  @Test func aNumberOfMoreThanTwentyDigitsMayOnlyEnd() throws {
    let a = try automaton(
      #"{"type":"object","properties":{"n":{"type":"number"},"s":{"type":"string"}},"required":["n","s"],"additionalProperties":false}"#
    )
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 64)
    try matcher.accept(bytes: Array(#"{"n":"#.utf8))
    let digits = Array("3141592653589793238".utf8)  // 19 digits, no repeated block
    for digit in digits { try matcher.accept(token: Int(digit)) }
    try matcher.accept(token: try id("12"))  // 21 digits
    #expect(!matcher.allows(token: 52))  // 4
    #expect(!matcher.allows(token: 46))  // .
    #expect(matcher.allows(token: 44))  // ,
    // Forced text between numbers ends the count; a string's digits are never restricted.
    try matcher.accept(bytes: Array(#","s":""#.utf8))
    for digit in digits + digits { try matcher.accept(token: Int(digit)) }
    #expect(matcher.allows(token: 52))
    #expect(!matcher.isEndingLoop)
  }

  @Test func loopStoppingOffAllowsLongNumbers() throws {
    let a = try automaton(#"{"type":"integer"}"#)
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: nil)
    for digit in Array("31415926535897932384626".utf8) { try matcher.accept(token: Int(digit)) }
    #expect(matcher.allows(token: 52))
  }

  @Test func numberShapes() {
    #expect(NumberShape(Array("2024".utf8)) == .digits)
    #expect(NumberShape(Array(".".utf8)) == .joiner)
    #expect(NumberShape(Array("-".utf8)) == .joiner)
    #expect(NumberShape(Array(".5".utf8)) == .other)
    #expect(NumberShape(Array("a1".utf8)) == .other)
    #expect(NumberShape([]) == .other)
  }

  @Test func snapshotsRestoreTheLoopState() throws {
    let a = try automaton(#"{"type":"string"}"#)
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: 12)
    try matcher.accept(token: 34)
    for _ in 0..<12 { try matcher.accept(token: try id("ab")) }
    let before = matcher.snapshot()
    #expect(!matcher.isEndingLoop)
    try matcher.accept(token: try id("ab"))
    #expect(matcher.isEndingLoop)
    matcher.restore(before)
    #expect(!matcher.isEndingLoop)
    #expect(matcher.allowedTokens().contains(try id("ab")))
  }

  @Test func loopStoppingCanBeTurnedOff() throws {
    let a = try automaton(#"{"type":"string"}"#)
    let matcher = TokenMatcher(automaton: a, vocabulary: vocabulary, loopRun: nil)
    try matcher.accept(token: 34)
    for _ in 0..<200 { try matcher.accept(token: try id("ab")) }
    #expect(!matcher.isEndingLoop)
  }
}
