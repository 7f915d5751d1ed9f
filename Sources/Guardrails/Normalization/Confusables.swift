/// Letters that look like Latin ones, mapped to them: the homoglyphs used to slip words past a
/// filter (Cyrillic `а`, Greek `ο`), full-width forms, and the mathematical, circled, squared
/// and regional-indicator letters of Unicode's symbol blocks.
enum Confusables {
  /// The lowercase Latin letter or digit `scalar` looks like, or nil.
  static func latin(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
    let value = scalar.value
    switch value {
    case 0xFF21...0xFF3A: return ascii(value - 0xFF21 + 0x61)  // full-width A–Z
    case 0xFF41...0xFF5A: return ascii(value - 0xFF41 + 0x61)  // full-width a–z
    case 0xFF10...0xFF19: return ascii(value - 0xFF10 + 0x30)  // full-width digits
    case 0x1D400...0x1D6A3: return ascii((value - 0x1D400) % 26 + 0x61)  // mathematical letters, 52 per style
    case 0x1D7CE...0x1D7FF: return ascii((value - 0x1D7CE) % 10 + 0x30)  // mathematical digits
    case 0x24B6...0x24CF: return ascii(value - 0x24B6 + 0x61)  // circled capitals
    case 0x24D0...0x24E9: return ascii(value - 0x24D0 + 0x61)  // circled small letters
    case 0x1F130...0x1F149: return ascii(value - 0x1F130 + 0x61)  // squared capitals
    case 0x1F150...0x1F169: return ascii(value - 0x1F150 + 0x61)  // negative circled capitals
    case 0x1F170...0x1F189: return ascii(value - 0x1F170 + 0x61)  // negative squared capitals
    case 0x1F1E6...0x1F1FF: return ascii(value - 0x1F1E6 + 0x61)  // regional indicators
    default: return homoglyphs[scalar]
    }
  }

  private static func ascii(_ value: UInt32) -> Unicode.Scalar? {
    Unicode.Scalar(value)
  }

  /// Cyrillic, Greek and other letters drawn like Latin ones (both cases).
  private static let homoglyphs: [Unicode.Scalar: Unicode.Scalar] = [
    // Cyrillic
    "\u{0430}": "a", "\u{0410}": "a", "\u{0432}": "b", "\u{0412}": "b", "\u{0441}": "c", "\u{0421}": "c",
    "\u{0435}": "e", "\u{0415}": "e", "\u{0451}": "e", "\u{0401}": "e", "\u{043D}": "h", "\u{041D}": "h",
    "\u{0456}": "i", "\u{0406}": "i", "\u{0458}": "j", "\u{0408}": "j", "\u{043A}": "k", "\u{041A}": "k",
    "\u{043C}": "m", "\u{041C}": "m", "\u{043E}": "o", "\u{041E}": "o", "\u{0440}": "p", "\u{0420}": "p",
    "\u{0455}": "s", "\u{0405}": "s", "\u{0442}": "t", "\u{0422}": "t", "\u{0443}": "y", "\u{0423}": "y",
    "\u{0445}": "x", "\u{0425}": "x", "\u{0501}": "d", "\u{051B}": "q", "\u{051D}": "w", "\u{04BB}": "h",
    // Greek
    "\u{03B1}": "a", "\u{0391}": "a", "\u{03B2}": "b", "\u{0392}": "b", "\u{03B5}": "e", "\u{0395}": "e",
    "\u{0396}": "z", "\u{0397}": "h", "\u{03B9}": "i", "\u{0399}": "i", "\u{03BA}": "k", "\u{039A}": "k",
    "\u{039C}": "m", "\u{03BD}": "v", "\u{039D}": "n", "\u{03BF}": "o", "\u{039F}": "o", "\u{03C1}": "p",
    "\u{03A1}": "p", "\u{03C4}": "t", "\u{03A4}": "t", "\u{03C5}": "u", "\u{03A5}": "y", "\u{03C7}": "x",
    "\u{03A7}": "x", "\u{03C9}": "w",
    // Latin look-alikes and others
    "\u{0131}": "i", "\u{0269}": "i", "\u{0261}": "g", "\u{01C0}": "l", "\u{0251}": "a", "\u{1D0F}": "o",
    "\u{0D20}": "o", "\u{00DF}": "s", "\u{00F8}": "o", "\u{00D8}": "o", "\u{0142}": "l", "\u{0141}": "l",
    "\u{00E6}": "a", "\u{00C6}": "a", "\u{0111}": "d", "\u{0110}": "d", "\u{00F0}": "d",
  ]
}
