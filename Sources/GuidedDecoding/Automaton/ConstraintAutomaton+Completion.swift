/// Forced text (jump-forward) and closing completions (budget reserve).
extension ConstraintAutomaton {
  /// The bytes that must come next from `state`: the longest run in which exactly one byte
  /// is allowed and the output cannot end. After `{"` in an object whose first property is
  /// required, that is the rest of its key and the colon.
  /// - Parameter limit: the most bytes to return.
  public func forcedBytes(from state: State, limit: Int = 4096) -> [UInt8] {
    var s = state.id
    var bytes: [UInt8] = []
    while bytes.count < limit, !finishable[Int(s)] {
      var only: (UInt8, Int32)?
      for b in 0...255 {
        let t = transition(s, UInt8(b))
        guard t >= 0 else { continue }
        if only != nil { return bytes }
        only = (UInt8(b), t)
      }
      guard let (b, t) = only else { return bytes }
      bytes.append(b)
      s = t
    }
    return bytes
  }

  /// A short byte sequence that completes a valid value from `state` (possibly empty).
  ///
  /// The caller reserves `closingBytes(from:).count` tokens of budget (a token is at least
  /// one byte, so this is a safe upper bound on tokens) and, when the budget runs out,
  /// feeds these bytes instead of sampling. The search is breadth-first over automaton
  /// states, so the result is the shortest completion for all common schemas; among
  /// digits it tries only a few per position, which can make a bounded number's completion
  /// longer than the very shortest.
  /// - Returns: `nil` only if the search exceeds `maxStates` (pathological schemas).
  public func closingBytes(from state: State, maxStates: Int = 20_000) -> [UInt8]? {
    if finishable[Int(state.id)] { return [] }
    var parent: [Int32: (Int32, UInt8)] = [state.id: (-1, 0)]
    var queue: [Int32] = [state.id]
    var head = 0
    // Why this order: a byte only wins where it reaches a new state first; readable
    // filler inside strings, the smallest digits, then closers.
    let preferred = Array("\"a019}]:,-. e{[tfn".utf8)
    let order = preferred + (0...255).map { UInt8($0) }.filter { !preferred.contains($0) }
    while head < queue.count {
      let s = queue[head]
      head += 1
      var sawDigit = false
      for b in order {
        let isDigit = b >= 48 && b <= 57
        // A live digit already tried at this position stands for the others.
        if isDigit, sawDigit, b != UInt8(ascii: "9") { continue }
        let t = transition(s, b)
        guard t >= 0 else { continue }
        if isDigit { sawDigit = true }
        guard parent[t] == nil else { continue }
        parent[t] = (s, b)
        if finishable[Int(t)] {
          var bytes: [UInt8] = []
          var cursor = t
          while let (p, byte) = parent[cursor], p >= 0 {
            bytes.append(byte)
            cursor = p
          }
          return bytes.reversed()
        }
        queue.append(t)
        if queue.count > maxStates { return nil }
      }
    }
    return nil
  }
}
