/// Byte-by-byte reading of a JSON string body, decoding escapes and UTF-8 so that lengths
/// and patterns apply to the decoded value, not to its JSON spelling.
///
/// Restrictions (documented for generation, none reject a canonical serialization):
/// `\u` escapes of UTF-16 surrogates are refused, so characters outside the BMP must be
/// written as raw UTF-8; raw control characters are refused, as JSON requires.
extension JSONGrammar.StringSpec {
  static let unconstrained = JSONGrammar.StringSpec(automata: [], minLength: 0, maxLength: nil, representatives: [0])

  func initialCursor(nameNode: Int32 = -1) -> StringCursor {
    StringCursor(regexStates: automata.map(\.start), nameNode: nameNode)
  }

  /// Whether the closing quote may come now.
  func canClose(_ c: StringCursor, names: NameTrie?) -> Bool {
    guard c.isBetweenScalars, c.length >= minLength else { return false }
    for (a, s) in zip(automata, c.regexStates) where !a.accepting[Int(s)] { return false }
    if let names, names.isName(c.nameNode) { return false }
    return true
  }

  /// Reads one byte of the body (never the closing quote); `nil` rejects it.
  /// - Parameter complete: answers whether constraint states can still reach a valid end.
  func advance(
    _ cursor: StringCursor, byte: UInt8, names: NameTrie?,
    complete: ([Int32], Int) -> Bool
  ) -> StringCursor? {
    guard var c = read(cursor, byte: byte, names: names, complete: complete) else { return nil }
    // Why: the partial scalar matters only to patterns, to `\u` escapes in key names
    // (and to spotting
    // `\uD8`-style surrogates); dropping it otherwise keeps one automaton state per
    // escape/UTF-8 position instead of one per partial value.
    let tracksValue = !automata.isEmpty || (c.escape >= 2 && names != nil && c.nameNode >= 0)
    if !tracksValue, !(c.escape == 3) { c.pending = 0 }
    if tracksValue, c.utf8Remaining > 0, c.pending & Self.resolvedFlag == 0 {
      // Why: once every completion of a UTF-8 sequence falls in one input class of the
      // patterns, its exact value no longer matters; forgetting it keeps one state per
      // class instead of one per partial character.
      let (low, high) = utf8Range(c)
      let cls = jointClass(of: low)
      if cls + 1 >= representatives.count || high < representatives[cls + 1] {
        c.pending = Self.resolvedFlag | UInt32(cls)
      }
    }
    return c
  }

  /// Marks `StringCursor.pending` as "class index" rather than a partial value.
  static let resolvedFlag: UInt32 = 0x8000_0000

  private func jointClass(of scalar: UInt32) -> Int {
    representatives.intervalIndex(of: scalar)
  }

  /// Every pattern's state after `scalar`, or `nil` when one of them rejects it.
  private func step(_ states: [Int32], _ scalar: UInt32) -> [Int32]? {
    var next = states
    for j in automata.indices {
      guard let n = automata[j].next(next[j], scalar) else { return nil }
      next[j] = n
    }
    return next
  }

  private func utf8Range(_ c: StringCursor) -> (UInt32, UInt32) {
    if c.pending & Self.resolvedFlag != 0 {
      let r = representatives[Int(c.pending & ~Self.resolvedFlag)]
      return (r, r)
    }
    let r = UInt32(c.utf8Remaining)
    let rest = 6 * (r - 1)
    let low = (c.pending << (6 * r)) | (UInt32(c.utf8Low & 0x3F) << rest)
    let high = (c.pending << (6 * r)) | (UInt32(c.utf8High & 0x3F) << rest) | ((1 << rest) - 1)
    return (low, high)
  }

  private func read(
    _ cursor: StringCursor, byte: UInt8, names: NameTrie?,
    complete: ([Int32], Int) -> Bool
  ) -> StringCursor? {
    var c = cursor
    let hasRoom = maxLength.map { Int(c.length) < $0 } ?? true
    switch c.escape {
    case 0 where c.utf8Remaining == 0:
      switch byte {
      case UInt8(ascii: "\\"):
        guard hasRoom else { return nil }
        c.escape = 1
        return viable(c, low: 0, high: 0xFFFF, complete: complete) ? c : nil
      case 0..<0x20, UInt8(ascii: "\""): return nil
      case 0x20..<0x80:
        if let names { c.nameNode = names.next(c.nameNode, byte) }
        return scalar(c, UInt32(byte), names: nil, complete: complete)
      case 0xC2...0xDF: (c.utf8Remaining, c.utf8Low, c.utf8High, c.pending) = (1, 0x80, 0xBF, UInt32(byte & 0x1F))
      case 0xE0: (c.utf8Remaining, c.utf8Low, c.utf8High, c.pending) = (2, 0xA0, 0xBF, 0)
      case 0xE1...0xEC, 0xEE, 0xEF:
        (c.utf8Remaining, c.utf8Low, c.utf8High, c.pending) = (2, 0x80, 0xBF, UInt32(byte & 0x0F))
      case 0xED: (c.utf8Remaining, c.utf8Low, c.utf8High, c.pending) = (2, 0x80, 0x9F, 0x0D)
      case 0xF0: (c.utf8Remaining, c.utf8Low, c.utf8High, c.pending) = (3, 0x90, 0xBF, 0)
      case 0xF1...0xF3: (c.utf8Remaining, c.utf8Low, c.utf8High, c.pending) = (3, 0x80, 0xBF, UInt32(byte & 0x07))
      case 0xF4: (c.utf8Remaining, c.utf8Low, c.utf8High, c.pending) = (3, 0x80, 0x8F, 4)
      default: return nil
      }
      guard hasRoom else { return nil }
      // Raw UTF-8 bytes are the name's own bytes: track names byte by byte.
      if let names { c.nameNode = names.next(c.nameNode, byte) }
      return viableUTF8(c, complete: complete) ? c : nil
    case 0:
      guard byte >= c.utf8Low, byte <= c.utf8High else { return nil }
      if let names { c.nameNode = names.next(c.nameNode, byte) }
      let resolved = c.pending & Self.resolvedFlag != 0
      if !resolved { c.pending = c.pending << 6 | UInt32(byte & 0x3F) }
      c.utf8Remaining -= 1
      c.utf8Low = 0x80
      c.utf8High = 0xBF
      if c.utf8Remaining == 0 {
        let value = resolved ? representatives[Int(c.pending & ~Self.resolvedFlag)] : c.pending
        c.pending = 0
        return scalar(c, value, names: nil, complete: complete)
      }
      return viableUTF8(c, complete: complete) ? c : nil
    case 1:
      let value: UInt32
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): value = UInt32(byte)
      case UInt8(ascii: "b"): value = 8
      case UInt8(ascii: "f"): value = 12
      case UInt8(ascii: "n"): value = 10
      case UInt8(ascii: "r"): value = 13
      case UInt8(ascii: "t"): value = 9
      case UInt8(ascii: "u"):
        c.escape = 2
        c.pending = 0
        return viable(c, low: 0, high: 0xFFFF, complete: complete) ? c : nil
      default: return nil
      }
      c.escape = 0
      return scalar(c, value, names: names, complete: complete)
    default:
      let digit: UInt32
      switch byte {
      case 48...57: digit = UInt32(byte - 48)
      case 65...70: digit = UInt32(byte - 55)
      case 97...102: digit = UInt32(byte - 87)
      default: return nil
      }
      c.pending = c.pending * 16 + digit
      c.escape += 1
      if c.escape == 6 {
        let value = c.pending
        c.escape = 0
        c.pending = 0
        if (0xD800...0xDFFF).contains(value) { return nil }
        return scalar(c, value, names: names, complete: complete)
      }
      let shift = UInt32(4 * (6 - Int(c.escape)))
      let low = c.pending << shift
      let high = low | ((1 << shift) - 1)
      // Why: a surrogate-only range (`\uD8`) could never finish.
      if low >= 0xD800, high <= 0xDFFF { return nil }
      return viable(c, low: low, high: high, complete: complete) ? c : nil
    }
  }

  private func scalar(
    _ cursor: StringCursor, _ value: UInt32, names: NameTrie?, complete: ([Int32], Int) -> Bool
  ) -> StringCursor? {
    var c = cursor
    if let maxLength, Int(c.length) >= maxLength { return nil }
    c.length = Int32(min(Int(c.length) + 1, lengthCap))
    for i in automata.indices {
      guard let next = automata[i].next(c.regexState(i), value) else { return nil }
      c.setRegexState(i, next)
    }
    if let names, c.nameNode >= 0 {
      if let s = Unicode.Scalar(value) {
        for b in String(Character(s)).utf8 { c.nameNode = names.next(c.nameNode, b) }
      }
    }
    if !automata.isEmpty, !complete(c.regexStates, Int(c.length)) { return nil }
    return c
  }

  /// Whether some scalar in `low...high` keeps the patterns completable.
  private func viable(_ c: StringCursor, low: UInt32, high: UInt32, complete: ([Int32], Int) -> Bool) -> Bool {
    if automata.isEmpty { return true }
    for (i, start) in representatives.enumerated() {
      let end = i + 1 < representatives.count ? representatives[i + 1] - 1 : CodePointSet.maxCodePoint
      var candidate = max(low, start)
      if (0xD800...0xDFFF).contains(candidate) { candidate = 0xE000 }
      guard candidate <= min(high, end) else { continue }
      if let states = step(c.regexStates, candidate), complete(states, min(Int(c.length) + 1, lengthCap)) {
        return true
      }
    }
    return false
  }

  private func viableUTF8(_ c: StringCursor, complete: ([Int32], Int) -> Bool) -> Bool {
    let (low, high) = utf8Range(c)
    return viable(c, low: low, high: high, complete: complete)
  }

  /// Whether the patterns, from `states` after `length` scalars, can still accept within
  /// the length bounds (a search over pattern states and capped lengths).
  func canComplete(states: [Int32], length: Int) -> Bool {
    if automata.isEmpty { return maxLength.map { length <= $0 && minLength <= $0 } ?? true }
    if maxLength == nil, automata.count == 1 {
      // Without an upper bound one pattern only has to allow a match long enough; dead
      // states are already pruned, so any state can reach a match.
      return automata[0].longestAcceptingPath[Int(states[0])] >= minLength - length
    }
    struct Key: Hashable {
      var states: [Int32]
      var length: Int
    }
    let cap = lengthCap
    var seen: Set<Key> = [Key(states: states, length: min(length, cap))]
    var queue = [Key(states: states, length: min(length, cap))]
    var head = 0
    while head < queue.count {
      let k = queue[head]
      head += 1
      if k.length >= minLength, zip(automata, k.states).allSatisfy({ $0.accepting[Int($1)] }) { return true }
      if let maxLength, k.length >= maxLength { continue }
      for rep in representatives {
        guard let next = step(k.states, rep) else { continue }
        let key = Key(states: next, length: min(k.length + 1, cap))
        if seen.insert(key).inserted { queue.append(key) }
      }
    }
    return false
  }
}
