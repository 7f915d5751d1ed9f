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
  /// feeds these bytes instead of sampling.
  ///
  /// The search is depth-first and greedy: at each step it tries first the bytes that close
  /// the most open structure (fewest matcher frames afterwards), then readable filler, the
  /// smallest digits, and so on, never revisiting a state. Breadth-first search would find
  /// the very shortest completion but explodes on deep structures (every `\u` escape and
  /// digit is a new state); the greedy completion is the shortest one in common cases and
  /// short in all.
  /// - Returns: `nil` only if the search visits more than `maxStates` states.
  public func closingBytes(from state: State, maxStates: Int = 50_000) -> [UInt8]? {
    if finishable[Int(state.id)] { return [] }
    // Why this order among equally deep choices: readable filler inside strings, the
    // smallest digits, then structure.
    let preferred = Array("\"a0}]:,19-. e{[tfn".utf8)
    let order = preferred + (0...255).map { UInt8($0) }.filter { !preferred.contains($0) }
    var visited: Set<Int32> = [state.id]
    var path: [UInt8] = []
    // Each level holds the candidate moves from one state, best first.
    var levels: [[(byte: UInt8, target: Int32)]] = [candidates(from: state.id, order: order)]
    while let last = levels.last {
      guard let move = last.first else {
        levels.removeLast()
        if !path.isEmpty { path.removeLast() }
        continue
      }
      levels[levels.count - 1].removeFirst()
      guard visited.insert(move.target).inserted else { continue }
      path.append(move.byte)
      if finishable[Int(move.target)] { return path }
      if visited.count > maxStates { return nil }
      levels.append(candidates(from: move.target, order: order))
    }
    return nil
  }

  /// Live moves from `state`, one per target, ordered by how much structure is left open
  /// afterwards and then by `order`.
  private func candidates(from state: Int32, order: [UInt8]) -> [(byte: UInt8, target: Int32)] {
    var seen: Set<Int32> = []
    var moves: [(byte: UInt8, target: Int32, depth: Int, rank: Int)] = []
    for (rank, b) in order.enumerated() {
      let t = transition(state, b)
      guard t >= 0, seen.insert(t).inserted else { continue }
      moves.append((b, t, openFrames(t), rank))
    }
    moves.sort { ($0.depth, $0.rank) < ($1.depth, $1.rank) }
    return moves.map { ($0.byte, $0.target) }
  }
}
