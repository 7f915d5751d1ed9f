/// Automata combined state by state: the strings whose matches across several patterns
/// follow a rule (all of them, none of them, exactly these), which regular expressions
/// without lookahead cannot say in one pattern.
extension CodePointAutomaton {
  /// The automaton of the strings for which `rule`, given whether each of `parts` matches
  /// the string, holds; nil when no string does.
  ///
  /// `parts` must not be empty.
  /// - Throws: `SchemaError.invalidPattern` when the product grows beyond `stateLimit`.
  static func product(_ parts: [CodePointAutomaton], source: String, rule: ([Bool]) -> Bool) throws
    -> CodePointAutomaton?
  {
    precondition(!parts.isEmpty, "a product of no automata")
    // Each class of the joint partition lies inside one class of every part.
    let boundaries = Set(parts.flatMap(\.boundaries)).sorted()
    var ids: [[Int32]: Int32] = [:]
    var states: [[Int32]] = []
    var accepting: [Bool] = []
    func intern(_ state: [Int32]) throws -> Int32 {
      if let id = ids[state] { return id }
      guard states.count < stateLimit else {
        throw SchemaError.invalidPattern(source, reason: "automaton larger than \(stateLimit) states")
      }
      let id = Int32(states.count)
      ids[state] = id
      states.append(state)
      // -1: that part can no longer match.
      accepting.append(rule(zip(parts, state).map { part, s in s >= 0 && part.accepting[Int(s)] }))
      return id
    }
    let start = try intern(parts.map(\.start))
    var transitions: [Int32] = []
    var index = 0
    while index < states.count {
      let state = states[index]
      for low in boundaries {
        let next = zip(parts, state).map { part, s in s < 0 ? -1 : part.next(s, low) ?? -1 }
        transitions.append(try intern(next))
      }
      index += 1
    }
    return try? CodePointAutomaton(
      boundaries: boundaries, transitions: transitions, accepting: accepting, start: start, source: source)
  }
}
