/// Prompt text split into template text (which may contain control tokens) and input (which
/// never does), so each is tokenized the right way.
public struct RenderedPrompt: Sendable, Equatable {
  public struct Piece: Sendable, Equatable {
    public var text: String
    /// Template text: control-token names in it become control tokens.
    public var isControl: Bool
  }

  public private(set) var pieces: [Piece] = []
  /// Where parts that other prompts may share end (the system turn), as counts of pieces.
  public private(set) var partEnds: [Int] = []

  public init() {}

  /// The whole prompt as one string.
  public var text: String { pieces.map(\.text).joined() }

  mutating func control(_ text: String) { append(text, isControl: true) }

  mutating func content(_ text: String) { append(text, isControl: false) }

  /// Ends a part here (see `GenerationRequest.promptBoundaries`).
  mutating func endPart() {
    if !pieces.isEmpty && partEnds.last != pieces.count { partEnds.append(pieces.count) }
  }

  /// Ends a part after the first `byteCount` bytes of the text, splitting the piece there if
  /// the end falls inside one.
  mutating func endPart(afterBytes byteCount: Int) {
    var remaining = byteCount
    for index in pieces.indices {
      let length = pieces[index].text.utf8.count
      if remaining < length {
        guard remaining > 0 else { break }
        let bytes = Array(pieces[index].text.utf8)
        let tail = Piece(text: String(decoding: bytes[remaining...], as: UTF8.self), isControl: pieces[index].isControl)
        pieces[index].text = String(decoding: bytes[..<remaining], as: UTF8.self)
        pieces.insert(tail, at: index + 1)
        partEnds = partEnds.map { $0 > index ? $0 + 1 : $0 }
        remaining = 0
      } else {
        remaining -= length
      }
      if remaining == 0 {
        if partEnds.last.map({ $0 < index + 1 }) ?? true, index + 1 < pieces.count { partEnds.append(index + 1) }
        return
      }
    }
  }

  /// The prompt up to the end of its last input: what the last message's turn is before the
  /// template closes it, so later text can continue it.
  func endingWithLastInput() -> RenderedPrompt {
    guard let last = pieces.lastIndex(where: { !$0.isControl }) else { return self }
    var prompt = self
    prompt.pieces.removeSubrange((last + 1)...)
    prompt.partEnds.removeAll { $0 > last }
    return prompt
  }

  /// A piece before everything else (the beginning-of-sequence token's text).
  mutating func prepend(control text: String) {
    pieces.insert(Piece(text: text, isControl: true), at: 0)
    partEnds = partEnds.map { $0 + 1 }
  }

  private mutating func append(_ text: String, isControl: Bool) {
    guard !text.isEmpty else { return }
    // Pieces on either side of a part's end stay apart, so the end falls between tokens.
    if let last = pieces.last, last.isControl == isControl, partEnds.last != pieces.count {
      pieces[pieces.count - 1].text += text
    } else {
      pieces.append(Piece(text: text, isControl: isControl))
    }
  }
}

extension RenderedPrompt {
  /// The prompt with every occurrence of `texts` in template text made input.
  ///
  /// A template writes tool definitions and call arguments with `tojson`, whose output the
  /// engine cannot mark as input; their strings (JSON-escaped, as `tojson` writes them) are
  /// found in the template text instead, so a description or an argument that spells a control
  /// token still cannot become one.
  func markingInput(_ texts: Set<String>) -> RenderedPrompt {
    let needles = texts.filter { !$0.isEmpty }.map { Array($0.utf8) }.sorted { $0.count > $1.count }
    guard !needles.isEmpty else { return self }
    let firstBytes = Set(needles.map { $0[0] })
    var result = RenderedPrompt()
    for (index, piece) in pieces.enumerated() {
      // A part that ended after this piece still ends after it.
      defer { if partEnds.contains(index + 1) { result.endPart() } }
      guard piece.isControl else {
        result.content(piece.text)
        continue
      }
      let bytes = Array(piece.text.utf8)
      var inputRanges: [Range<Int>] = []
      var position = 0
      while position < bytes.count {
        if firstBytes.contains(bytes[position]),
          let needle = needles.first(where: { bytes[position...].starts(with: $0) })
        {
          inputRanges.append(position..<position + needle.count)
          position += needle.count
        } else {
          position += 1
        }
      }
      var start = 0
      for range in inputRanges {
        result.control(String(decoding: bytes[start..<range.lowerBound], as: UTF8.self))
        result.content(String(decoding: bytes[range], as: UTF8.self))
        start = range.upperBound
      }
      result.control(String(decoding: bytes[start...], as: UTF8.self))
    }
    return result
  }
}
