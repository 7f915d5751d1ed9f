import Synchronization

extension CodePointAutomaton {
  /// Automata already built, by pattern, shared by every compilation and validation in the
  /// process.
  ///
  /// Why: a format's pattern is the same in every schema that names it, and building the DFA of
  /// a `uri` (RFC 3986, IPv6 literals included) costs far more than checking a string with it;
  /// validation used to build one for every string it checked.
  private static let built = Mutex<[String: CodePointAutomaton]>([:])

  /// Most patterns kept; past it the cache starts over.
  static let cacheLimit = 512

  /// The automaton of `pattern`, built once per process.
  /// - Throws: `SchemaError.invalidPattern`.
  static func cached(pattern: String) throws -> CodePointAutomaton {
    if let known = built.withLock({ $0[pattern] }) { return known }
    let automaton = try CodePointAutomaton(pattern: pattern)
    built.withLock { cache in
      if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
      cache[pattern] = automaton
    }
    return automaton
  }
}
