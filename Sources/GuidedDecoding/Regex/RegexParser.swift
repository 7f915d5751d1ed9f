/// A parsed regular expression in the supported subset.
indirect enum RegexNode: Hashable, Sendable {
  case empty
  case characters(CodePointSet)
  case concatenation([RegexNode])
  case alternation([RegexNode])
  case repetition(RegexNode, min: Int, max: Int?)
  /// `^`: matches only at the start of the string.
  case startAnchor
  /// `$`: matches only at the end of the string.
  case endAnchor
}

/// Parses the regex subset used by `pattern` (ECMA-262 syntax).
///
/// Supported: literals; escapes `\d \D \w \W \s \S \t \n \r \f \v \0 \xHH \uHHHH` and escaped
/// punctuation; classes `[...]` with ranges, negation and the class escapes; `.` (any
/// character but `\n`); groups `(…)`, `(?:…)`, `(?<name>…)`; alternation `|`; quantifiers
/// `* + ? {n} {n,} {n,m}` (a trailing lazy `?` is accepted: laziness does not change which
/// strings match); anchors `^` and `$`.
/// Not supported (an error names them): backreferences, lookaround, word boundaries `\b \B`,
/// Unicode property escapes `\p{…}`, flags and other `(?…)` forms.
/// `\d` and `\w` are ASCII-only, as in ECMA-262.
struct RegexParser {
  private let source: [Character]
  private var position = 0
  private let pattern: String

  /// Parses `pattern`.
  /// - Throws: `SchemaError.invalidPattern` naming the unsupported construct.
  static func parse(_ pattern: String) throws -> RegexNode {
    var parser = RegexParser(pattern: pattern)
    let node = try parser.parseAlternation()
    guard parser.position == parser.source.count else { throw parser.fail("unbalanced ')'") }
    return node
  }

  private init(pattern: String) {
    self.pattern = pattern
    self.source = Array(pattern)
  }

  private func fail(_ reason: String) -> SchemaError {
    SchemaError.invalidPattern(pattern, reason: reason)
  }

  private var peek: Character? { position < source.count ? source[position] : nil }

  private mutating func parseAlternation() throws -> RegexNode {
    var branches = [try parseConcatenation()]
    while peek == "|" {
      position += 1
      branches.append(try parseConcatenation())
    }
    return branches.count == 1 ? branches[0] : .alternation(branches)
  }

  private mutating func parseConcatenation() throws -> RegexNode {
    var items: [RegexNode] = []
    while let c = peek, c != "|", c != ")" {
      var atom = try parseAtom()
      atom = try parseQuantifiers(on: atom)
      items.append(atom)
    }
    if items.isEmpty { return .empty }
    return items.count == 1 ? items[0] : .concatenation(items)
  }

  private mutating func parseQuantifiers(on atom: RegexNode) throws -> RegexNode {
    var atom = atom
    while let c = peek {
      var bounds: (Int, Int?)?
      switch c {
      case "*": bounds = (0, nil); position += 1
      case "+": bounds = (1, nil); position += 1
      case "?": bounds = (0, 1); position += 1
      case "{":
        guard let parsed = try parseBraces() else { return atom }
        bounds = parsed
      default: return atom
      }
      guard let (min, max) = bounds else { return atom }
      if atom == .startAnchor || atom == .endAnchor { throw fail("quantified anchor") }
      if peek == "?" { position += 1 }
      if peek == "+" { throw fail("possessive quantifier") }
      atom = .repetition(atom, min: min, max: max)
    }
    return atom
  }

  /// Parses `{n}`, `{n,}` or `{n,m}`; returns nil (consuming nothing) when the brace is a literal.
  private mutating func parseBraces() throws -> (Int, Int?)? {
    let start = position
    position += 1
    func number() -> Int? {
      var digits = ""
      while let c = peek, c.isASCII, c.isNumber {
        digits.append(c)
        position += 1
      }
      return digits.isEmpty ? nil : Int(digits.prefix(7))
    }
    guard let min = number() else {
      position = start
      return nil
    }
    var max: Int? = min
    if peek == "," {
      position += 1
      max = number()
    }
    guard peek == "}" else {
      position = start
      return nil
    }
    position += 1
    if let max, max < min { throw fail("quantifier {\(min),\(max)} has max < min") }
    // Why: counted repetition is expanded into automaton states.
    if min > 1000 || (max ?? 0) > 1000 { throw fail("repetition count above 1000") }
    return (min, max)
  }

  private mutating func parseAtom() throws -> RegexNode {
    guard let c = peek else { throw fail("unexpected end") }
    position += 1
    switch c {
    case "^": return .startAnchor
    case "$": return .endAnchor
    case ".": return .characters(CodePointSet(10).inverted)
    case "[": return .characters(try parseClass())
    case "(":
      if peek == "?" {
        position += 1
        switch peek {
        case ":": position += 1
        case "<" where position + 1 < source.count && source[position + 1] != "=" && source[position + 1] != "!",
          "P" where position + 1 < source.count && source[position + 1] == "<":
          while let n = peek, n != ">" { position += 1 }
          guard peek == ">" else { throw fail("unterminated group name") }
          position += 1
        case "=", "!", "<": throw fail("lookaround")
        default: throw fail("group flags (?\(peek.map(String.init) ?? ""))")
        }
      }
      let inner = try parseAlternation()
      guard peek == ")" else { throw fail("missing ')'") }
      position += 1
      return inner
    case ")": throw fail("unbalanced ')'")
    case "*", "+", "?": throw fail("nothing to repeat before '\(c)'")
    case "\\": return .characters(try parseEscape(inClass: false))
    default: return .characters(Self.set(of: c))
    }
  }

  private static func set(of c: Character) -> CodePointSet {
    CodePointSet(ranges: c.unicodeScalars.map { $0.value...$0.value })
  }

  private mutating func parseClass() throws -> CodePointSet {
    var negated = false
    if peek == "^" {
      negated = true
      position += 1
    }
    var set = CodePointSet.empty
    var first = true
    while true {
      guard let c = peek else { throw fail("unterminated character class") }
      if c == "]" && !first { position += 1; break }
      first = false
      position += 1
      var lower: CodePointSet
      if c == "\\" {
        lower = try parseEscape(inClass: true)
      } else if c == "[" && (peek == ":" || peek == "=" || peek == ".") {
        throw fail("POSIX class")
      } else {
        lower = Self.set(of: c)
      }
      if peek == "-", position + 1 < source.count, source[position + 1] != "]",
        lower.ranges.count == 1, lower.ranges[0].count == 1
      {
        position += 1
        guard let h = peek else { throw fail("unterminated range") }
        position += 1
        let upper = h == "\\" ? try parseEscape(inClass: true) : Self.set(of: h)
        guard upper.ranges.count == 1, upper.ranges[0].count == 1,
          upper.ranges[0].lowerBound >= lower.ranges[0].lowerBound
        else { throw fail("invalid class range") }
        lower = CodePointSet(ranges: [lower.ranges[0].lowerBound...upper.ranges[0].lowerBound])
      }
      set = set.union(lower)
    }
    return negated ? set.inverted : set
  }

  private mutating func hexValue(digits count: Int) throws -> UInt32 {
    guard position + count <= source.count else { throw fail("short hex escape") }
    let text = String(source[position..<position + count])
    guard let value = UInt32(text, radix: 16) else { throw fail("bad hex escape") }
    position += count
    return value
  }

  private mutating func parseEscape(inClass: Bool) throws -> CodePointSet {
    guard let c = peek else { throw fail("trailing backslash") }
    position += 1
    switch c {
    case "d": return .digits
    case "D": return CodePointSet.digits.inverted
    case "w": return .word
    case "W": return CodePointSet.word.inverted
    case "s": return .space
    case "S": return CodePointSet.space.inverted
    case "t": return CodePointSet(9)
    case "n": return CodePointSet(10)
    case "v": return CodePointSet(11)
    case "f": return CodePointSet(12)
    case "r": return CodePointSet(13)
    case "0": return CodePointSet(0)
    case "b" where inClass: return CodePointSet(8)
    case "x": return CodePointSet(try hexValue(digits: 2))
    case "u":
      if peek == "{" { throw fail("\\u{…} escape") }
      return CodePointSet(try hexValue(digits: 4))
    case "b", "B": throw fail("word boundary \\\(c)")
    case "p", "P": throw fail("Unicode property escape \\\(c)")
    case "1"..."9": throw fail("backreference \\\(c)")
    case "k": throw fail("named backreference")
    case "c": throw fail("control escape \\c")
    default:
      if c.isLetter || c.isNumber { throw fail("unknown escape \\\(c)") }
      return Self.set(of: c)
    }
  }
}
