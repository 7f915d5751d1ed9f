/// The byte-level constraint for one schema: a deterministic automaton over UTF-8 bytes of
/// compact JSON, built lazily.
///
/// Each state stands for a set of matcher stacks (several stacks while generation has not
/// yet chosen between `anyOf` branches or optional keys). States and transitions are
/// created on first use and cached, so the hot paths — walking a vocabulary trie for a
/// token mask, accepting a token — are table lookups after warm-up.
///
/// Not thread-safe: it mutates its caches. Use one per generation (or guard it).
public final class ConstraintAutomaton {
  /// A state of the automaton.
  ///
  /// Only meaningful with the automaton that produced it.
  public struct State: Hashable, Sendable {
    let id: Int32
    /// Diagnostics only: a state by its raw number.
    public init(id: Int32) { self.id = id }
  }

  let grammar: JSONGrammar
  /// Every distinct stack seen, by id.
  var stacks = MatcherStacks()
  /// Per state, the sorted ids of its stacks.
  private var configurations: [[Int32]] = []
  private var configurationIDs: [[Int32]: Int32] = [:]
  private(set) var finishable: [Bool] = []
  /// `state * 256 + byte` → next state, `dead` or `unknown`.
  private(set) var table: UnsafeMutablePointer<Int32>
  private var tableCapacity: Int
  private var completionMemo: [CompletionKey: Bool] = [:]
  /// Per state: the `plainSplit` answer once computed (limit -1: not applicable).
  private var plainSplits: [(limit: Int, rest: State?)?] = []
  /// Per state: the first step of its closing completion, once found (see `closingBytes`).
  var closingSteps: [ClosingStep?] = []
  /// Per state: its forced bytes, once computed (see `forcedBytes`).
  var forcedRuns: [[UInt8]?] = []

  static let dead: Int32 = -1
  static let unknown: Int32 = -2

  private struct CompletionKey: Hashable {
    var node: Int32
    var states: [Int32]
    var length: Int
  }

  /// Compiles a schema document.
  /// - Parameter options: what generation may write where the schema leaves the shape open;
  ///   `.standard` for exactly the values JSON Schema admits.
  /// - Throws: `SchemaError`.
  public convenience init(_ document: SchemaDocument, options: ConstraintOptions = .generation) throws {
    self.init(grammar: try SchemaCompiler.compile(document, options: options))
  }

  /// Parses and compiles JSON Schema text.
  /// - Throws: `SchemaError`.
  public convenience init(
    jsonSchema: String, options: JSONSchemaParser.Options = .init(), constraint: ConstraintOptions = .generation
  ) throws {
    try self.init(JSONSchemaParser(options: options).parse(jsonSchema), options: constraint)
  }

  init(grammar: JSONGrammar) {
    self.grammar = grammar
    tableCapacity = 64
    table = .allocate(capacity: tableCapacity * 256)
    let start = stacks.push(.value(grammar.root), on: MatcherStacks.empty)
    _ = intern([start])
  }

  deinit {
    table.deallocate()
  }

  /// The state before any output.
  public var initialState: State { State(id: 0) }

  /// Number of states built so far (for diagnostics and benchmarks).
  public var stateCount: Int { configurations.count }

  /// The state after `byte`, or `nil` when the byte is not allowed.
  @inline(__always)
  public func next(_ state: State, _ byte: UInt8) -> State? {
    let t = transition(state.id, byte)
    return t < 0 ? nil : State(id: t)
  }

  /// The state after `bytes`, or `nil` when one of them is not allowed.
  public func next(_ state: State, bytes: some Sequence<UInt8>) -> State? {
    var s = state.id
    for b in bytes {
      s = transition(s, b)
      if s < 0 { return nil }
    }
    return State(id: s)
  }

  /// Whether the output may end in `state`: a complete value of the schema has been read.
  public func isComplete(_ state: State) -> Bool { finishable[Int(state.id)] }

  /// Raw transition; `dead` (-1) when not allowed.
  @inline(__always)
  func transition(_ state: Int32, _ byte: UInt8) -> Int32 {
    let t = table[Int(state) &<< 8 | Int(byte)]
    if t != Self.unknown { return t }
    return computeTransition(state, byte)
  }

  private func computeTransition(_ state: Int32, _ byte: UInt8) -> Int32 {
    var result: [Int32] = []
    for stack in configurations[Int(state)] {
      step(stack, byte, into: &result)
    }
    let target = result.isEmpty ? Self.dead : intern(result)
    table[Int(state) &<< 8 | Int(byte)] = target
    return target
  }

  private func intern(_ produced: [Int32]) -> Int32 {
    var ids = produced
    ids.sort()
    if ids.count > 1 {
      var unique: [Int32] = [ids[0]]
      for id in ids.dropFirst() where id != unique[unique.count - 1] { unique.append(id) }
      ids = unique
    }
    if let id = configurationIDs[ids] { return id }
    let id = Int32(configurations.count)
    if configurations.count == tableCapacity {
      let bigger = UnsafeMutablePointer<Int32>.allocate(capacity: tableCapacity * 2 * 256)
      bigger.update(from: table, count: tableCapacity * 256)
      table.deallocate()
      table = bigger
      tableCapacity *= 2
    }
    (table + Int(id) * 256).initialize(repeating: Self.unknown, count: 256)
    configurationIDs[ids] = id
    configurations.append(ids)
    finishable.append(ids.contains { canFinish($0) })
    plainSplits.append(nil)
    closingSteps.append(nil)
    forcedRuns.append(nil)
    return id
  }

  private func canFinish(_ stack: Int32) -> Bool {
    if stack == MatcherStacks.empty { return true }
    guard stacks.below(stack) == MatcherStacks.empty, case .number(let node, let cursor)? = stacks.top(stack),
      case .number(let spec) = grammar.nodes[Int(node)], cursor.isTerminable
    else { return false }
    return !spec.tracksDigits || spec.acceptsFinal(cursor.text)
  }

  /// The fewest frames any stack of `state` has open (how much structure is left to close).
  func openFrames(_ state: Int32) -> Int {
    var fewest = Int.max
    for stack in configurations[Int(state)] { fewest = min(fewest, stacks.depth(stack)) }
    return fewest == Int.max ? 0 : fewest
  }

  /// The stacks `state` stands for.
  func configurations(of state: Int32) -> [Int32] { configurations[Int(state)] }

  /// How deep `state` is nested: the fewest frames any of its stacks holds.
  public func depth(of state: State) -> Int { openFrames(state.id) }

  /// The level `state` stands at for loop stopping: `depth(of:)`, but a top frame of which
  /// nothing has been read does not count.
  ///
  /// After `,` in an array the next item's frame is already open, yet the output stands at the
  /// array's level: a loop of numbers (`1,2,3,`) passes through that level only there, since the
  /// `,` that ends a number also opens the next item.
  func level(of state: State) -> Int {
    var level = Int.max
    for stack in configurations[Int(state.id)] {
      var frames = stacks.depth(stack)
      if case .value? = stacks.top(stack) { frames -= 1 }
      level = min(level, frames)
    }
    return level == Int.max ? 0 : level
  }

  /// How a value open in the output ends.
  enum ValueEnd: Hashable, Sendable {
    /// By this byte: `"` for string content, `]` for an array, `}` for an object.
    case closer(UInt8)
    /// By whatever byte follows a number, which is no part of it.
    case number
  }

  /// How the value open at nesting `depth` in `state` ends, when every stack of the state
  /// agrees on it; nil otherwise (a key, a literal, or stacks that disagree).
  func valueEnd(of state: State, atDepth depth: Int) -> ValueEnd? {
    var found: ValueEnd?
    for stack in configurations[Int(state.id)] {
      var s = stack
      while stacks.depth(s) > depth { s = stacks.below(s) }
      guard stacks.depth(s) == depth else { return nil }
      let end: ValueEnd
      switch stacks.top(s) {
      case .string?: end = .closer(UInt8(ascii: "\""))
      case .array?: end = .closer(UInt8(ascii: "]"))
      case .object?: end = .closer(UInt8(ascii: "}"))
      case .number?: end = .number
      default: return nil
      }
      if let found, found != end { return nil }
      found = end
    }
    return found
  }

  /// How `state` splits for mask computation: the stacks inside string content that takes
  /// any character (no pattern, between characters; keys included, since a plain token can
  /// never close a key) and how many more characters fit for them (`Int.max` for no
  /// limit), plus a state made of the other stacks, if any.
  ///
  /// `nil` when no stack qualifies.
  ///
  /// A token is allowed when some stack allows it, so the mask is the plain tokens that
  /// fit, plus whatever the full state allows among the other tokens, plus whatever the
  /// other stacks allow.
  func plainSplit(_ state: State) -> (limit: Int, rest: State?)? {
    let i = Int(state.id)
    if let known = plainSplits[i] { return known.limit < 0 ? nil : (known.limit, known.rest) }
    var limit = -1
    var others: [Int32] = []
    for stack in configurations[i] {
      switch stacks.top(stack) {
      case .string(let node, let cursor)? where cursor.isBetweenScalars:
        if case .string(let spec) = grammar.nodes[Int(node)], spec.automata.isEmpty {
          limit = max(limit, spec.maxLength.map { $0 - Int(cursor.length) } ?? Int.max)
        } else {
          others.append(stack)
        }
      case .key(let objectNode, let kind, let cursor)? where cursor.isBetweenScalars:
        if case .object(let object) = grammar.nodes[Int(objectNode)],
          case .string(let spec) = grammar.nodes[Int(object.additional[Int(kind)].key)], spec.automata.isEmpty
        {
          limit = max(limit, spec.maxLength.map { $0 - Int(cursor.length) } ?? Int.max)
        } else {
          others.append(stack)
        }
      default:
        others.append(stack)
      }
    }
    let rest = limit >= 0 && !others.isEmpty ? State(id: intern(others)) : nil
    plainSplits[i] = (limit, rest)
    return limit < 0 ? nil : (limit, rest)
  }

  /// Memoised `StringSpec.canComplete`.
  func stringCanComplete(_ node: Int32, _ spec: JSONGrammar.StringSpec, _ states: [Int32], _ length: Int) -> Bool {
    let key = CompletionKey(node: node, states: states, length: length)
    if let known = completionMemo[key] { return known }
    let answer = spec.canComplete(states: states, length: length)
    completionMemo[key] = answer
    return answer
  }
}

extension ConstraintAutomaton {
  /// The matcher stacks a state stands for, one per line (diagnostics).
  public func debugDescription(of state: State) -> String {
    configurations[Int(state.id)].map { stacks.frames(of: $0).map { "\($0)" }.joined(separator: " / ") }
      .joined(separator: "\n")
  }
}
