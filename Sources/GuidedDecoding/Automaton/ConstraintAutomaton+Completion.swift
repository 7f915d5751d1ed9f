/// Forced text (jump-forward) and closing completions (budget reserve).
///
/// Both are asked for on every generated token, so both are remembered per state: a state's
/// forced run and the first step of its closing completion are computed once. With the
/// completion remembered as a chain of steps, the reserve a deeply nested output needs is one
/// lookup (`closingLength`), not a search over every level on every token.
extension ConstraintAutomaton {
  /// One step of a closing completion: the byte to write, the state it leads to, and how many
  /// bytes the whole completion from the state before it takes.
  struct ClosingStep {
    var byte: UInt8
    var target: Int32
    var length: Int32
  }

  /// The bytes that must come next from `state`: the longest run in which exactly one byte
  /// is allowed and the output cannot end.
  ///
  /// After `{"` in an object whose first property is required, that is the rest of its key and the
  /// colon.
  /// - Parameter limit: the most bytes to return.
  public func forcedBytes(from state: State, limit: Int = 4096) -> [UInt8] {
    if let known = forcedRuns[Int(state.id)] { return Array(known.prefix(limit)) }
    var s = state.id
    var bytes: [UInt8] = []
    while bytes.count < limit, !finishable[Int(s)] {
      var only: (UInt8, Int32)?
      var several = false
      for b in 0...255 {
        let t = transition(s, UInt8(b))
        guard t >= 0 else { continue }
        if only != nil {
          several = true
          break
        }
        only = (UInt8(b), t)
      }
      guard !several, let (b, t) = only else { break }
      bytes.append(b)
      s = t
    }
    if bytes.count < limit { forcedRuns[Int(state.id)] = bytes }
    return bytes
  }

  /// A short byte sequence that completes a valid value from `state` (possibly empty).
  ///
  /// The caller reserves `closingLength(from:)` tokens of budget (a token is at least one
  /// byte, so this is a safe upper bound on tokens) and, when the budget runs out, feeds
  /// these bytes instead of sampling.
  ///
  /// The search is depth-first and greedy: at each step it tries first the bytes that close
  /// the most open structure (fewest matcher frames afterwards), then readable filler, the
  /// smallest digits, and so on, never revisiting a state, and it stops at a state whose
  /// completion is already known. Breadth-first search would find the very shortest
  /// completion but explodes on deep structures (every `\u` escape and digit is a new
  /// state); the greedy completion is the shortest one in common cases and short in all.
  /// - Returns: `nil` only if the search visits more than `maxStates` states.
  public func closingBytes(from state: State, maxStates: Int = 50_000) -> [UInt8]? {
    guard findClosing(from: state.id, maxStates: maxStates) else { return nil }
    var bytes: [UInt8] = []
    var s = state.id
    while let step = closingSteps[Int(s)], step.length > 0 {
      bytes.append(step.byte)
      s = step.target
    }
    return bytes
  }

  /// The length of `closingBytes(from:)`, without building it: the closing reserve a
  /// generation keeps on every token.
  /// - Returns: `nil` only if the search visits more than `maxStates` states.
  public func closingLength(from state: State, maxStates: Int = 50_000) -> Int? {
    guard findClosing(from: state.id, maxStates: maxStates) else { return nil }
    return closingSteps[Int(state.id)].map { Int($0.length) }
  }

  /// Finds and records the closing completion of `state` unless it is known already.
  private func findClosing(from state: Int32, maxStates: Int) -> Bool {
    if closingSteps[Int(state)] != nil { return true }
    if finishable[Int(state)] {
      closingSteps[Int(state)] = ClosingStep(byte: 0, target: state, length: 0)
      return true
    }
    // Why this order among equally deep choices: readable filler inside strings, the
    // smallest digits, then structure.
    let order = Self.closingOrder
    var visited: Set<Int32> = [state]
    var path: [(byte: UInt8, from: Int32)] = []
    // Each level holds the candidate moves from one state, best first.
    var levels: [[(byte: UInt8, target: Int32)]] = [candidates(from: state, order: order)]
    var current = state
    while let last = levels.last {
      guard let move = last.first else {
        levels.removeLast()
        if let back = path.popLast() { current = back.from }
        continue
      }
      levels[levels.count - 1].removeFirst()
      guard visited.insert(move.target).inserted else { continue }
      path.append((move.byte, current))
      current = move.target
      if finishable[Int(move.target)] || closingSteps[Int(move.target)] != nil {
        // Record the path, back to front, so every state on it knows its completion.
        if closingSteps[Int(move.target)] == nil {
          closingSteps[Int(move.target)] = ClosingStep(byte: 0, target: move.target, length: 0)
        }
        var target = move.target
        var length = closingSteps[Int(move.target)].map(\.length) ?? 0
        for step in path.reversed() {
          length += 1
          closingSteps[Int(step.from)] = ClosingStep(byte: step.byte, target: target, length: length)
          target = step.from
        }
        return true
      }
      if visited.count > maxStates { return false }
      levels.append(candidates(from: move.target, order: order))
    }
    return false
  }

  private static let closingOrder: [UInt8] = {
    let preferred = Array("\"a0}]:,19-. e{[tfn".utf8)
    return preferred + (0...255).map { UInt8($0) }.filter { !preferred.contains($0) }
  }()

  /// Live moves from `state`, one per target, ordered by how much structure is left open
  /// afterwards and then by `order`.
  private func candidates(from state: Int32, order: [UInt8]) -> [(byte: UInt8, target: Int32)] {
    var seen: Set<Int32> = []
    var moves: [(byte: UInt8, target: Int32, depth: Int, rank: Int)] = []
    let hint = numberHint(state)
    for (rank, b) in order.enumerated() {
      let t = transition(state, b)
      guard t >= 0, seen.insert(t).inserted else { continue }
      // Where every tracked number is valid as it stands, it ends rather than grows: each
      // further digit is a new state (the digits are kept), so a search that tried them
      // would descend for ever when what follows the number fails; a longer number is never
      // what closes the output.
      if hint == .end, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") { continue }
      moves.append((b, t, openFrames(t), b == hint?.byte ? -1 : rank))
    }
    moves.sort { ($0.depth, $0.rank) < ($1.depth, $1.rank) }
    return moves.map { ($0.byte, $0.target) }
  }

  /// The next digit of a near valid number, inside a number whose digits are tracked.
  ///
  /// Why: the search tries `0` first, and `10`, `100`, `1000`… is an endless road to a
  /// multiple of 7, as `2.000…` is to a number above 2; a near valid completion of the digits
  /// so far is computed instead (`NumberSpec.nearestCompletion`).
  private func numberHint(_ state: Int32) -> NumberHint? {
    var end = false
    for stack in configurations(of: state) {
      guard case .number(let node, let cursor)? = stacks.top(stack), case .number(let spec) = grammar.nodes[Int(node)],
        spec.tracksDigits, let completion = spec.nearestCompletion(after: cursor.text)
      else { continue }
      guard let first = completion.first else {
        end = true
        continue
      }
      return .byte(first)
    }
    return end ? .end : nil
  }

  /// What `numberHint` found: the next digit of a near valid number, or that every tracked
  /// number is valid as it stands (no digit is then tried).
  private enum NumberHint: Equatable {
    case byte(UInt8)
    case end

    var byte: UInt8? {
      if case .byte(let b) = self { b } else { nil }
    }
  }
}
