import GuidedDecoding
import JSON

/// Random generation over every accepted corpus schema: pick random allowed tokens for a
/// random budget, then close with `closingBytes`.
///
/// Every output must parse as JSON and validate against the schema (`SchemaValidator`, written
/// independently of the automaton), and no state may be a dead end.
struct FuzzRun {
  var runsPerSchema: Int
  var vocabulary: Vocabulary
  var verbose: Bool

  /// xorshift: deterministic, so a failure reproduces.
  private struct Random {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    mutating func next(below n: Int) -> Int {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return Int(state % UInt64(n))
    }
  }

  func run(_ documents: [(name: String, document: SchemaDocument)]) {
    var random = Random()
    var outputs = 0
    var deadEnds = 0
    var unclosed = 0
    var invalid = 0
    for (name, document) in documents {
      let started = ContinuousClock.now
      defer {
        if verbose, ContinuousClock.now - started > .seconds(1) {
          print("SLOW FUZZ \(name) \(ContinuousClock.now - started)")
        }
      }
      guard let automaton = try? ConstraintAutomaton(document) else { continue }
      let matcher = TokenMatcher(automaton: automaton, vocabulary: vocabulary)
      let validator = SchemaValidator(document: document)
      for _ in 0..<runsPerSchema {
        matcher.reset()
        var output: [UInt8] = []
        for _ in 0..<(1 + random.next(below: 60)) {
          let allowed = matcher.allowedTokens().allowedTokens.filter { !vocabulary.endOfSequenceTokens.contains($0) }
          if allowed.isEmpty {
            if !matcher.isComplete {
              deadEnds += 1
              if verbose { print("DEAD END \(name): \(String(decoding: output, as: UTF8.self))") }
            }
            break
          }
          let token = allowed[random.next(below: allowed.count)]
          try? matcher.accept(token: token)
          output += vocabulary.tokens[token]
        }
        guard let closing = matcher.closingBytes(), (try? matcher.accept(bytes: closing)) != nil else {
          unclosed += 1
          if verbose { print("UNCLOSED \(name): \(String(decoding: output, as: UTF8.self))") }
          continue
        }
        output += closing
        outputs += 1
        let value = try? JSONValue(parsing: output)
        let valid = value.flatMap { try? validator.validate($0, against: document.root) } ?? false
        if !valid {
          invalid += 1
          if verbose { print("INVALID \(name): \(String(decoding: output, as: UTF8.self))") }
        }
      }
    }
    print(
      jsonLine([
        ("figure", "fuzz"), ("schemas", documents.count), ("outputs", outputs), ("invalidOutputs", invalid),
        ("deadEnds", deadEnds), ("unclosed", unclosed),
      ]))
  }
}
