import GuidedDecoding

/// Builds a byte-level BPE-like vocabulary of a given size without a model: every single
/// byte, then the most frequent pieces of the corpus cut the way Qwen's pre-tokenizer cuts
/// text (an optional non-letter followed by letters; single digits; an optional space
/// followed by a punctuation run), then filler (Latin and CJK characters) up to the size.
///
/// So, as in the real vocabulary, tokens such as `":"`, `"},{"` and `"name` cross JSON structure
/// boundaries, while letters and punctuation never share a token beyond that.
enum SyntheticVocabulary {
  static func build(size: Int, corpusTexts: [[UInt8]]) -> Vocabulary {
    var counts: [[UInt8]: Int] = [:]
    let isLetter = { (b: UInt8) in (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || b >= 0x80 }
    let isDigit = { (b: UInt8) in b >= 48 && b <= 57 }
    for text in corpusTexts {
      var i = 0
      while i < text.count {
        var j = i
        if isDigit(text[i]) {
          j = i + 1
        } else if isLetter(text[i]) || (i + 1 < text.count && isLetter(text[i + 1]) && !isDigit(text[i])) {
          j = i + 1
          while j < text.count, isLetter(text[j]) { j += 1 }
        } else {
          if text[j] == 0x20 { j += 1 }
          while j < text.count, !isLetter(text[j]), !isDigit(text[j]), text[j] != 0x20 { j += 1 }
          if j == i { j += 1 }
        }
        if j - i > 1, j - i <= 16 { counts[Array(text[i..<j]), default: 0] += 1 }
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
