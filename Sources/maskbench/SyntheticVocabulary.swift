import GuidedDecoding

/// Builds a byte-level BPE-like vocabulary of a given size without a model: every single
/// byte, then the most frequent JSON-shaped pieces of the corpus (words with and without a
/// leading space or quote, keys with `":`, digit groups, punctuation runs), then filler
/// (Latin and CJK characters, word pairs) up to the size. Token boundaries therefore fall
/// across structure (`":"`, `},{"`) the way real vocabularies' do.
enum SyntheticVocabulary {
  static func build(size: Int, corpusTexts: [[UInt8]]) -> Vocabulary {
    var counts: [[UInt8]: Int] = [:]
    func add(_ piece: ArraySlice<UInt8>) {
      guard piece.count > 1, piece.count <= 24 else { return }
      counts[Array(piece), default: 0] += 1
    }
    for text in corpusTexts {
      var i = 0
      while i < text.count {
        var j = i
        let isWord = { (b: UInt8) in (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || b == 95 }
        let isDigit = { (b: UInt8) in b >= 48 && b <= 57 }
        if isWord(text[i]) {
          while j < text.count, isWord(text[j]) { j += 1 }
        } else if isDigit(text[i]) {
          while j < text.count, j - i < 3, isDigit(text[j]) { j += 1 }
        } else {
          while j < text.count, j - i < 4, !isWord(text[j]), !isDigit(text[j]), text[j] < 0x80 { j += 1 }
          if j == i { j += 1 }
        }
        add(text[i..<j])
        if i > 0 { add(text[(i - 1)..<j]) }
        if j < text.count { add(text[i..<(j + 1)]) }
        if j + 1 < text.count { add(text[i..<(j + 2)]) }
        i = j
      }
    }
    var tokens: [[UInt8]] = (0..<256).map { [UInt8($0)] }
    var seen = Set(tokens)
    let ranked = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key) }
    for (piece, _) in ranked where tokens.count < size - 1 && !seen.contains(piece) {
      tokens.append(piece)
      seen.insert(piece)
    }
    // Filler: characters beyond ASCII, as real multilingual vocabularies have.
    var scalar: UInt32 = 0xA1
    while tokens.count < size - 1, scalar < 0x2FFFF {
      if let s = Unicode.Scalar(scalar) {
        let bytes = Array(String(Character(s)).utf8)
        if !seen.contains(bytes) {
          tokens.append(bytes)
          seen.insert(bytes)
        }
      }
      scalar += 1
    }
    tokens.append(Array("<|endoftext|>".utf8))
    return Vocabulary(tokens: tokens, specialTokens: [], endOfSequenceTokens: [tokens.count - 1])
  }
}
