/// Prompt lookup by text where the output and the document split a word otherwise: a value
/// begins after a quote, so the model writes `gar` `lic` where the document holds ` garlic`,
/// `E` `conomy` for ` Economy`, and no token of the output's occurs in the document to match.
/// Compared as text, the value's start finds the document's word, and the rest of it, split as
/// the tokenizer splits it, is drafted (`DecodeSteps.draft`).
///
/// Only a value's text is compared (what the output wrote since its last quote, or the number
/// it ends with), only where the document has a word start there, and only as far as the
/// document's line or column goes on: the same rules as the lookup by tokens under a
/// constraint.
struct SpelledLookup {
  /// The prompt's text, and where each of its tokens begins in it.
  let bytes: [UInt8]
  let starts: [Int]

  /// The most occurrences of a value's start that are read; with more it is too common a start
  /// to say which one the output copies, unless the cursor does.
  static let occurrenceLimit = 16
  /// The longest continuation read after an occurrence, in bytes.
  static let continuationLimit = 48
  /// How many of the output's last tokens are searched for the value's start.
  static let tailTokens = 12

  /// What the lookup found after a value's start.
  struct Found: Equatable {
    /// The continuation's tokens: the ones every occurrence goes on with, or where they differ,
    /// the ones after the occurrence nearest after the cursor.
    var tokens: [Token]
    /// The prompt token where the continuation begins.
    var source: Int
    /// Whether every occurrence goes on so (else it is the nearest's).
    var agreed: Bool
  }

  init(prompt: [Token], model: any TokenModel) {
    var bytes: [UInt8] = []
    var starts: [Int] = []
    for token in prompt {
      starts.append(bytes.count)
      bytes += model.piece(of: token)
    }
    self.bytes = bytes
    self.starts = starts
  }

  /// The value's text so far, within the output's last `tailTokens` tokens: in a string
  /// (`inString`), what the output wrote since its last quote; else the number it ends with
  /// (digits, points, signs). Nil where there is none (a value's first token has no text to
  /// compare).
  static func valueText(of output: ArraySlice<Token>, model: any TokenModel, inString: Bool) -> [UInt8]? {
    var text: [UInt8] = []
    for token in output.reversed().prefix(tailTokens) {
      for byte in model.piece(of: token).reversed() {
        if inString ? byte == UInt8(ascii: "\"") : !isNumeric(byte) { return text.isEmpty ? nil : text }
        text.insert(byte, at: 0)
      }
    }
    return nil
  }

  private static func isNumeric(_ byte: UInt8) -> Bool {
    byte.isASCIIDigit || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
  }

  /// The document's continuation after `value` where it begins a word, tokenized by `model`:
  /// what every occurrence goes on with, else the continuation of the occurrence nearest after
  /// `cursor` (a prompt token index) within `window` tokens; nil where neither gives a token.
  func find(after value: [UInt8], model: any TokenModel, cursor: Int?, window: Int) -> Found? {
    guard !value.isEmpty, value.count <= bytes.count else { return nil }
    var occurrences: [Int] = []
    var offset = 0
    while offset + value.count <= bytes.count {
      if bytes[offset] == value[0], Self.beginsWord(at: offset, in: bytes),
        bytes[offset..<(offset + value.count)].elementsEqual(value)
      {
        occurrences.append(offset + value.count)
      }
      offset += 1
    }
    guard !occurrences.isEmpty else { return nil }
    if occurrences.count <= Self.occurrenceLimit {
      let continuations = occurrences.map { tokens(after: $0, model: model) }
      var agreed = continuations[0]
      for other in continuations.dropFirst() {
        agreed = Array(zip(agreed, other).prefix { $0 == $1 }.map(\.0))
      }
      if !agreed.isEmpty {
        return Found(tokens: agreed, source: token(at: occurrences[occurrences.count - 1]), agreed: true)
      }
    }
    guard let cursor,
      let nearest = occurrences.first(where: { token(at: $0) >= cursor && token(at: $0) < cursor + window })
    else { return nil }
    let continuation = tokens(after: nearest, model: model)
    return continuation.isEmpty ? nil : Found(tokens: continuation, source: token(at: nearest), agreed: false)
  }

  /// Where prompt token `index` begins in the text (the text's end past the last token).
  func offset(of index: Int) -> Int { index < starts.count ? starts[index] : bytes.count }

  /// The prompt token that holds byte `offset`.
  func token(at offset: Int) -> Int {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The text after `offset` to the end of its line or column (the line's end, or a gap of two
  /// spaces, kept: the draft ends the value there), tokenized.
  private func tokens(after offset: Int, model: any TokenModel) -> [Token] {
    var end = offset
    let limit = min(bytes.count, offset + Self.continuationLimit)
    while end < limit {
      if bytes[end] == UInt8(ascii: "\n") {
        end += 1
        break
      }
      if bytes[end] == UInt8(ascii: " "), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: " ") {
        end += 2
        break
      }
      end += 1
    }
    // A continuation cut inside a character loses the character.
    var text = bytes[offset..<end]
    while !text.isEmpty, String(validating: text, as: UTF8.self) == nil { text = text.dropLast() }
    guard let string = String(validating: text, as: UTF8.self), !string.isEmpty else { return [] }
    return model.tokenize(string, parseSpecial: false)
  }

  /// Whether a word begins at `offset`: the text's start, or after a byte that is no letter or
  /// digit.
  private static func beginsWord(at offset: Int, in bytes: [UInt8]) -> Bool {
    guard offset > 0 else { return true }
    let before = bytes[offset - 1]
    return !(before.isASCIIDigit || before.isASCIILetter || before >= 0x80)
  }
}

extension UInt8 {
  /// Whether the byte is an ASCII digit, `0` to `9`.
  var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
  /// Whether the byte is an ASCII letter.
  var isASCIILetter: Bool {
    (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
  }
}
