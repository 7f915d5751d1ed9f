/// Digits and symbols written for letters (`k1ll`, `b0mb`, `$h!t`), read back only where they
/// stand inside a word.
enum Leetspeak {
  /// The letter a leetspeak character stands for.
  static func letter(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
    switch scalar {
    case "0": "o"
    case "1", "!": "i"
    case "3", "\u{20AC}": "e"
    case "4", "@": "a"
    case "5", "$": "s"
    case "7", "+": "t"
    case "8": "b"
    case "9": "g"
    case "|": "l"
    default: nil
    }
  }

  /// Whether `token` uses leetspeak: a leetspeak character between two letters (`k1ll`), or a
  /// symbol leading two letters (`$hit`, `@ss`).
  ///
  /// Plain numbers (`2024`), ordinals (`4th`) and tags with a number at the end (`mp3`, `covid19`)
  /// are not.
  static func isDisguised(_ token: [Unicode.Scalar], isLetter: (Unicode.Scalar) -> Bool) -> Bool {
    guard token.count >= 3 else { return false }
    for index in token.indices where letter(for: token[index]) != nil && !isLetter(token[index]) {
      let before = index > 0 && isLetter(token[index - 1])
      let after = index + 1 < token.count && isLetter(token[index + 1])
      if before && after { return true }
      if index == 0, !(0x30...0x39).contains(token[0].value), isLetter(token[1]), isLetter(token[2]) { return true }
    }
    return false
  }
}
