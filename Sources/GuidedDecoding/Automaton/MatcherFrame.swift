/// One level of the matcher's stack: where generation stands inside one JSON value.
///
/// Frames are small values so that whole stacks can be hashed and interned: the matcher
/// is a lazily built DFA whose states are sets of stacks.
enum MatcherFrame: Hashable, Sendable {
  /// A value of this node is expected next; nothing of it has been read.
  case value(Int32)
  /// Inside a literal node, `offset` bytes read.
  case literal(Int32, offset: Int32)
  /// Inside a string value (after the opening quote).
  case string(Int32, StringCursor)
  /// Inside an undeclared key of the object node, of its additional kind `kind`.
  case key(Int32, kind: Int32, StringCursor)
  case number(Int32, NumberCursor)
  /// Inside an array; `count` items started (capped), `matched` of them written as matching
  /// `contains` (capped), `afterItem` false right after `[`.
  case array(Int32, count: Int32, matched: Int32, afterItem: Bool)
  case object(Int32, ObjectCursor)
}

/// Position inside a string: escape and UTF-8 decoding progress plus the constraint state.
struct StringCursor: Hashable, Sendable {
  /// Scalars so far, capped at the spec's `lengthCap`.
  var length: Int32 = 0
  /// State of each pattern automaton of the spec (at most three: a value's `pattern` and
  /// `format`; a key's pattern, `propertyNames` pattern and distinctness from declared names).
  ///
  /// Fields, not an array: cursors are hashed on every new transition.
  private var regexState0: Int32 = -1
  private var regexState1: Int32 = -1
  private var regexState2: Int32 = -1
  /// Position in the object's name trie (additional keys only); -1 once distinct.
  var nameNode: Int32 = -1
  /// 0: plain; 1: after `\`; 2…5: inside `\u` after (escape - 2) hex digits.
  var escape: UInt8 = 0
  /// Continuation bytes still expected for the current UTF-8 sequence.
  var utf8Remaining: UInt8 = 0
  /// Allowed range of the next continuation byte (narrower right after some lead bytes).
  var utf8Low: UInt8 = 0x80
  var utf8High: UInt8 = 0xBF
  /// The scalar value decoded so far (UTF-8 or `\u` hex).
  var pending: UInt32 = 0

  var isBetweenScalars: Bool { escape == 0 && utf8Remaining == 0 }

  init(regexStates: [Int32] = [], nameNode: Int32 = -1) {
    regexState0 = regexStates.first ?? -1
    regexState1 = regexStates.count > 1 ? regexStates[1] : -1
    regexState2 = regexStates.count > 2 ? regexStates[2] : -1
    self.nameNode = nameNode
  }

  /// The pattern states in spec order.
  var regexStates: [Int32] { [regexState0, regexState1, regexState2].filter { $0 >= 0 } }

  func regexState(_ i: Int) -> Int32 { i == 0 ? regexState0 : i == 1 ? regexState1 : regexState2 }

  mutating func setRegexState(_ i: Int, _ state: Int32) {
    switch i {
    case 0: regexState0 = state
    case 1: regexState1 = state
    default: regexState2 = state
    }
  }
}

/// Position inside a number.
struct NumberCursor: Hashable, Sendable {
  enum Phase: UInt8, Hashable, Sendable {
    case start, minus, zero, integerDigits, dot, fractionDigits, exponentMark, exponentSign, exponentDigits
  }
  var phase: Phase = .start
  /// Exponent digits so far: at most 3 are generated (beyond, no `Double` can hold it).
  var exponentLength: UInt8 = 0
  /// The text so far, kept only when the number has bounds.
  var text: [UInt8] = []

  /// Whether the number may end here.
  var isTerminable: Bool {
    switch phase {
    case .zero, .integerDigits, .fractionDigits, .exponentDigits: true
    default: false
    }
  }
}

/// Position inside an object.
struct ObjectCursor: Hashable, Sendable {
  enum Phase: UInt8, Hashable, Sendable {
    /// Right after `{`.
    case open
    /// Right after `,`.
    case afterComma
    /// Reading the declared key `"name":` of property `index`, `offset` bytes in.
    case declaredKey
    /// An additional key was read; `:` comes next.
    ///
    /// `index` is the property count plus the key's additional kind.
    case additionalColon
    /// A member value ended; `,` or `}` comes next.
    case afterValue
  }
  var phase: Phase
  /// Properties before this index are behind us (or the key being read, for `declaredKey`).
  var index: Int32
  var offset: Int32 = 0
  /// Members started so far; counted only when the object bounds its member count.
  var members: Int32 = 0
}
