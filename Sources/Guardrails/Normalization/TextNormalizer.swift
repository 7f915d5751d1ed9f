import Foundation

/// Turns text into the form every check reads: lowercase words of plain letters, one space
/// apart, with the usual disguises undone.
///
/// Undone, in order: format characters (zero-width spaces and joiners, soft hyphens, bidi
/// marks) removed; accents stripped (canonical decomposition, then combining marks dropped);
/// look-alike letters mapped to Latin ones (``Confusables``: Cyrillic and Greek homoglyphs,
/// full-width forms, mathematical, circled and squared letters); case folded; leetspeak read
/// back inside words (`k1ll`, `b0mb`, `$h!t`, `4ss`), but never in plain numbers or in tags
/// such as `mp3`; letters spread out with spaces or dots joined (`k i l l`, `b.o.m.b`);
/// a letter repeated three or more times cut to two (`kiiiill` → `kiill`). Apostrophes are
/// dropped (`don't` → `dont`), and all other punctuation separates words.
public enum TextNormalizer {
  /// The normalised words of `text`.
  public static func words(_ text: String) -> [String] {
    var tokens: [[Unicode.Scalar]] = []
    var current: [Unicode.Scalar] = []
    for scalar in scalars(of: text) {
      if isTokenScalar(scalar) {
        current.append(scalar)
      } else if !current.isEmpty {
        tokens.append(current)
        current = []
      }
    }
    if !current.isEmpty { tokens.append(current) }
    var words: [String] = []
    words.reserveCapacity(tokens.count)
    for token in tokens { appendWords(of: token, to: &words) }
    return joiningSpreadLetters(words).map(cuttingRepeats)
  }

  /// The normalised text: ``words(_:)`` joined by single spaces.
  public static func normalize(_ text: String) -> String {
    words(text).joined(separator: " ")
  }

  // MARK: Scalars

  /// The scalars of `text` with format characters removed, accents stripped, look-alikes mapped
  /// and case folded.
  private static func scalars(of text: String) -> [Unicode.Scalar] {
    let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
    let source = isASCII ? text : text.decomposedStringWithCanonicalMapping
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(source.utf8.count)
    for scalar in source.unicodeScalars {
      if scalar.value < 0x80 {
        result.append(asciiLowercase(scalar))
        continue
      }
      switch scalar.properties.generalCategory {
      case .format, .nonspacingMark, .enclosingMark, .spacingMark: continue
      default: break
      }
      if let mapped = Confusables.latin(for: scalar) {
        result.append(mapped)
        continue
      }
      let lower = scalar.properties.lowercaseMapping.unicodeScalars
      result.append(contentsOf: lower)
    }
    return result
  }

  private static func asciiLowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(scalar.value + 0x20) ?? scalar : scalar
  }

  /// Letters, digits, leetspeak symbols and the marks that may sit inside a word.
  private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
    if Leetspeak.letter(for: scalar) != nil || innerMarks.contains(scalar) { return true }
    return isLetter(scalar) || isDigit(scalar)
  }

  private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x80 { return (0x61...0x7A).contains(scalar.value) }
    return scalar.properties.isAlphabetic
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    (0x30...0x39).contains(scalar.value)
  }

  /// Marks that join the pieces of one token (`self-harm`, `b.o.m.b`, `don't`), split below.
  private static let innerMarks: Set<Unicode.Scalar> = [".", "-", "_", "*", "'", "\u{2019}", "~"]
  private static let apostrophes: Set<Unicode.Scalar> = ["'", "\u{2019}"]

  // MARK: Tokens

  /// The words of one token: leetspeak read back, apostrophes dropped, and the pieces between
  /// inner marks either joined (when every piece is one letter: `b.o.m.b`) or kept apart.
  private static func appendWords(of token: [Unicode.Scalar], to words: inout [String]) {
    let read = Leetspeak.isDisguised(token, isLetter: isLetter) ? token.map { Leetspeak.letter(for: $0) ?? $0 } : token
    var pieces: [[Unicode.Scalar]] = [[]]
    for scalar in read {
      if apostrophes.contains(scalar) { continue }
      if innerMarks.contains(scalar) || Leetspeak.letter(for: scalar) != nil && !isLetter(scalar) && !isDigit(scalar) {
        if !(pieces.last?.isEmpty ?? true) { pieces.append([]) }
      } else {
        pieces[pieces.count - 1].append(scalar)
      }
    }
    pieces.removeAll(where: \.isEmpty)
    guard !pieces.isEmpty else { return }
    if pieces.count >= 3, pieces.allSatisfy({ $0.count == 1 }) {
      words.append(string(pieces.joined()))
    } else {
      for piece in pieces { words.append(string(piece[...])) }
    }
  }

  private static func string<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
  }

  /// Runs of three or more one-letter words joined into one (`k i l l` → `kill`).
  private static func joiningSpreadLetters(_ words: [String]) -> [String] {
    var result: [String] = []
    result.reserveCapacity(words.count)
    var index = 0
    while index < words.count {
      var end = index
      while end < words.count, words[end].unicodeScalars.count == 1, isLetter(words[end].unicodeScalars.first ?? " ") {
        end += 1
      }
      if end - index >= 3 {
        result.append(words[index..<end].joined())
        index = end
      } else {
        result.append(words[index])
        index += 1
      }
    }
    return result
  }

  /// A letter repeated three or more times cut to two.
  private static func cuttingRepeats(_ word: String) -> String {
    var scalars: [Unicode.Scalar] = []
    var changed = false
    for scalar in word.unicodeScalars {
      if scalars.count >= 2, scalars[scalars.count - 1] == scalar, scalars[scalars.count - 2] == scalar {
        changed = true
        continue
      }
      scalars.append(scalar)
    }
    return changed ? string(scalars) : word
  }
}
