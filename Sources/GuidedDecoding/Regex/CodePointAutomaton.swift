/// A deterministic automaton over Unicode scalars, compiled from a `RegexNode` with JSON
/// Schema's search semantics: the pattern may match anywhere unless anchored by `^`/`$`.
///
/// Dead states (that can no longer reach an accepting state) are removed, so `next`
/// returning `nil` means "no string with this prefix can match".
final class CodePointAutomaton: Sendable {
  /// Start of each input class; class `i` covers `[boundaries[i], boundaries[i+1])`.
  let boundaries: [UInt32]
  /// Class of each ASCII scalar, for the common case.
  let asciiClasses: [UInt16]
  /// `state * classCount + class` → next state, or -1.
  let transitions: [Int32]
  let accepting: [Bool]
  let start: Int32
  /// Per state, the longest path to an accepting state (`Int.max` when a cycle makes it
  /// unbounded), so "can it still match with at least n more characters?" is one lookup.
  let longestAcceptingPath: [Int]

  var classCount: Int { boundaries.count }
  var stateCount: Int { accepting.count }

  /// Largest automaton built before giving up on a pattern.
  static let stateLimit = 4000

  /// Compiles a pattern in the supported subset.
  /// - Throws: `SchemaError.invalidPattern`.
  convenience init(pattern: String) throws {
    try self.init(regex: RegexParser.parse(pattern), source: pattern)
  }

  convenience init(regex: RegexNode, source: String) throws {
    var nfa = ThompsonNFA()
    let searchStart = nfa.addState()
    let (patternStart, patternEnd) = try nfa.build(regex, source: source)
    let final = nfa.addState()
    let anySet = nfa.intern(.all)
    nfa.charEdges[searchStart].append((anySet, searchStart))
    nfa.epsilon[searchStart].append(patternStart)
    nfa.epsilon[patternEnd].append(final)
    nfa.charEdges[final].append((anySet, final))

    var cuts: Set<UInt32> = [0]
    for set in nfa.sets {
      for r in set.ranges {
        cuts.insert(r.lowerBound)
        if r.upperBound < CodePointSet.maxCodePoint { cuts.insert(r.upperBound + 1) }
      }
    }
    let boundaries = cuts.sorted()
    // Which classes each interned set covers.
    let setClasses: [[Bool]] = nfa.sets.map { set in boundaries.map { set.contains($0) } }

    var stateIDs: [[Int]: Int32] = [:]
    var stateSets: [[Int]] = []
    var transitions: [Int32] = []
    var accepting: [Bool] = []
    func intern(_ set: [Int]) throws -> Int32 {
      if let id = stateIDs[set] { return id }
      guard stateSets.count < Self.stateLimit else {
        throw SchemaError.invalidPattern(source, reason: "automaton larger than \(Self.stateLimit) states")
      }
      let id = Int32(stateSets.count)
      stateIDs[set] = id
      stateSets.append(set)
      accepting.append(nfa.closure(set, followStart: false, followEnd: true).contains(final))
      return id
    }
    let start = try intern(nfa.closure([searchStart], followStart: true, followEnd: false))
    var index = 0
    while index < stateSets.count {
      let set = stateSets[index]
      for cls in 0..<boundaries.count {
        var targets: Set<Int> = []
        for s in set {
          for (setIndex, target) in nfa.charEdges[s] where setClasses[setIndex][cls] {
            targets.insert(target)
          }
        }
        if targets.isEmpty {
          transitions.append(-1)
        } else {
          transitions.append(try intern(nfa.closure(Array(targets), followStart: false, followEnd: false)))
        }
      }
      index += 1
    }
    try self.init(boundaries: boundaries, transitions: transitions, accepting: accepting, start: start, source: source)
  }

  /// An automaton from its tables (`transitions[state * classCount + class]`, -1 for none),
  /// with the states that cannot reach acceptance pruned.
  /// - Throws: `SchemaError.invalidPattern` when the start state cannot reach acceptance.
  init(boundaries: [UInt32], transitions: [Int32], accepting: [Bool], start: Int32, source: String) throws {
    var transitions = transitions
    // Prune states that cannot reach acceptance.
    let count = accepting.count
    let classCount = boundaries.count
    var live = accepting
    var changed = true
    while changed {
      changed = false
      for s in 0..<count where !live[s] {
        for c in 0..<classCount {
          let t = transitions[s * classCount + c]
          if t >= 0, live[Int(t)] {
            live[s] = true
            changed = true
            break
          }
        }
      }
    }
    for i in transitions.indices where transitions[i] >= 0 && !live[Int(transitions[i])] {
      transitions[i] = -1
    }
    guard live[Int(start)] else { throw SchemaError.invalidPattern(source, reason: "matches nothing") }
    self.boundaries = boundaries
    self.asciiClasses = (0..<128).map { UInt16(boundaries.intervalIndex(of: UInt32($0))) }
    self.transitions = transitions
    self.accepting = accepting
    self.start = start
    self.longestAcceptingPath = Self.longestPaths(
      transitions: transitions, accepting: accepting, classCount: classCount)
  }

  /// Longest path from each state to acceptance over live states; a reachable cycle makes
  /// it unbounded (every live state can still reach acceptance).
  private static func longestPaths(transitions: [Int32], accepting: [Bool], classCount: Int) -> [Int] {
    let count = accepting.count
    // -1: not visited yet; Int.min: no accepting path (cannot happen for live states).
    var result = [Int](repeating: -1, count: count)
    var onStack = [Bool](repeating: false, count: count)
    // Iterative depth-first search: (state, next class to look at).
    for root in 0..<count where result[root] == -1 {
      var stack: [(Int, Int)] = [(root, 0)]
      onStack[root] = true
      var longest = [Int: Int]()
      longest[root] = accepting[root] ? 0 : Int.min
      while let (s, c) = stack.last {
        if c == classCount {
          stack.removeLast()
          onStack[s] = false
          result[s] = max(longest[s] ?? Int.min, accepting[s] ? 0 : Int.min)
          if let (p, _) = stack.last {
            let through = result[s] == Int.max ? Int.max : (result[s] == Int.min ? Int.min : result[s] + 1)
            longest[p] = max(longest[p] ?? Int.min, through)
          }
          continue
        }
        stack[stack.count - 1].1 += 1
        let t = Int(transitions[s * classCount + c])
        guard t >= 0 else { continue }
        if onStack[t] {
          longest[s] = Int.max
        } else if result[t] >= 0 || result[t] == Int.max {
          let through = result[t] == Int.max ? Int.max : result[t] + 1
          longest[s] = max(longest[s] ?? Int.min, through)
        } else if result[t] == Int.min {
          continue
        } else {
          onStack[t] = true
          longest[t] = accepting[t] ? 0 : Int.min
          stack.append((t, 0))
        }
      }
    }
    return result
  }

  func classIndex(of c: UInt32) -> Int {
    c < 128 ? Int(asciiClasses[Int(c)]) : boundaries.intervalIndex(of: c)
  }

  /// The state after reading scalar `c`, or `nil` when no match is possible any more.
  func next(_ state: Int32, _ c: UInt32) -> Int32? {
    let t = transitions[Int(state) * boundaries.count + classIndex(of: c)]
    return t < 0 ? nil : t
  }

  /// One valid scalar of each class reachable from `state`, with its target, for searches
  /// that need a concrete character (closing completions).
  func successors(of state: Int32) -> [(scalar: UInt32, state: Int32)] {
    var result: [(UInt32, Int32)] = []
    for cls in 0..<boundaries.count {
      let t = transitions[Int(state) * boundaries.count + cls]
      guard t >= 0 else { continue }
      let low = boundaries[cls]
      let high = cls + 1 < boundaries.count ? boundaries[cls + 1] - 1 : CodePointSet.maxCodePoint
      // Prefer printable characters: a completion should be readable text.
      var candidate = low
      if low < 0x20 && high >= 0x20 { candidate = high >= 0x61 && low <= 0x61 ? 0x61 : 0x20 }
      if (0xD800...0xDFFF).contains(candidate) {
        guard high > 0xDFFF else { continue }
        candidate = 0xE000
      }
      result.append((candidate, t))
    }
    return result
  }
}

/// Thompson construction of an ε-NFA with anchor edges.
private struct ThompsonNFA {
  var epsilon: [[Int]] = []
  var charEdges: [[(Int, Int)]] = []
  var startEdges: [[Int]] = []
  var endEdges: [[Int]] = []
  var sets: [CodePointSet] = []
  var setIndex: [CodePointSet: Int] = [:]

  static let stateLimit = 20_000

  mutating func addState() -> Int {
    epsilon.append([])
    charEdges.append([])
    startEdges.append([])
    endEdges.append([])
    return epsilon.count - 1
  }

  mutating func intern(_ set: CodePointSet) -> Int {
    if let i = setIndex[set] { return i }
    sets.append(set)
    setIndex[set] = sets.count - 1
    return sets.count - 1
  }

  mutating func build(_ node: RegexNode, source: String) throws -> (Int, Int) {
    guard epsilon.count < Self.stateLimit else {
      throw SchemaError.invalidPattern(source, reason: "too many repetitions")
    }
    switch node {
    case .empty:
      let s = addState()
      let e = addState()
      epsilon[s].append(e)
      return (s, e)
    case .characters(let set):
      let s = addState()
      let e = addState()
      if !set.isEmpty { charEdges[s].append((intern(set), e)) }
      return (s, e)
    case .startAnchor, .endAnchor:
      let s = addState()
      let e = addState()
      if node == .startAnchor { startEdges[s].append(e) } else { endEdges[s].append(e) }
      return (s, e)
    case .concatenation(let items):
      var (s, e) = try build(items[0], source: source)
      for item in items.dropFirst() {
        let (s2, e2) = try build(item, source: source)
        epsilon[e].append(s2)
        e = e2
      }
      _ = s
      return (s, e)
    case .alternation(let branches):
      let s = addState()
      let e = addState()
      for b in branches {
        let (bs, be) = try build(b, source: source)
        epsilon[s].append(bs)
        epsilon[be].append(e)
      }
      return (s, e)
    case .repetition(let inner, let min, let max):
      let s = addState()
      var e = s
      for _ in 0..<min {
        let (a, b) = try build(inner, source: source)
        epsilon[e].append(a)
        e = b
      }
      if let max {
        let end = addState()
        for _ in min..<max {
          let (a, b) = try build(inner, source: source)
          epsilon[e].append(end)
          epsilon[e].append(a)
          e = b
        }
        epsilon[e].append(end)
        return (s, end)
      }
      let loop = addState()
      let end = addState()
      epsilon[e].append(loop)
      let (a, b) = try build(inner, source: source)
      epsilon[loop].append(a)
      epsilon[loop].append(end)
      epsilon[b].append(loop)
      return (s, end)
    }
  }

  /// The ε-closure of `states`, following anchor edges only where they can hold.
  func closure(_ states: [Int], followStart: Bool, followEnd: Bool) -> [Int] {
    var seen = Set(states)
    var stack = states
    while let s = stack.popLast() {
      var next = epsilon[s]
      if followStart { next += startEdges[s] }
      if followEnd { next += endEdges[s] }
      for t in next where !seen.contains(t) {
        seen.insert(t)
        stack.append(t)
      }
    }
    return seen.sorted()
  }
}
