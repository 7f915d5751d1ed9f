/// Under a constraint, where a document's next value begins, for the value the model is about to
/// start (`DecodeSteps.draft`, `Guess.nextValue`).
///
/// A form or a table (an invoice, a lab report, a receipt) gives its values in the order of its
/// lines and columns, and an extraction's schema mostly asks for them in that order: after the
/// text the output copied last (`GuidedLookupMemory.cursor`) comes the rest of that cell, then
/// blanks, then on a form line a label ending in `": "`, then the value, perhaps after a currency
/// sign, an opening parenthesis or a bullet. That is where the next value is guessed to begin.
/// Prose gives no such order, and where the guesses are refused their odds (`GuessOdds`) leave
/// them out of the drafts that follow.
enum NextValueLookup {
  /// The prompt position of the token that begins the next value after the prompt token
  /// `cursor` (within `GuidedLookupMemory.window` tokens), read in `prompt`'s text, and whether
  /// the value begins one byte into it (after its leading space); nil where the window holds
  /// none, or where the value begins inside a token otherwise.
  static func start(in prompt: SpelledLookup, after cursor: Int) -> (position: Int, afterSpace: Bool)? {
    guard cursor >= 0, cursor < prompt.starts.count else { return nil }
    let from = prompt.starts[cursor]
    let end = cursor + GuidedLookupMemory.window
    let to = prompt.offset(of: end)
    guard let offset = valueStart(in: Array(prompt.bytes[from..<to])).map({ from + $0 }) else { return nil }
    let position = prompt.token(at: offset)
    switch offset - prompt.starts[position] {
    case 0: return (position, false)
    case 1 where prompt.bytes[offset - 1] == space: return (position, true)
    default: return nil
    }
  }

  /// The offset in `text`, a document's text from after the last copied value, where the next
  /// value begins: past the rest of that value's cell, blanks, labels (a line's words up to
  /// `": "`, or a whole line ending in `:`), and a currency sign, parenthesis or bullet before it.
  static func valueStart(in text: [UInt8]) -> Int? {
    var index = 0
    while index < text.count, !isBlank(text[index]) { index += 1 }
    // A few labels or headings at most: further on, the value is no longer the next one.
    for _ in 0..<3 {
      while index < text.count, isBlank(text[index]) { index += 1 }
      guard index < text.count else { return nil }
      let end = cellEnd(in: text, from: index)
      if let colon = labelEnd(in: text[index..<end]) {
        index = colon
        while index < end, text[index] == space { index += 1 }
        if index == end { continue }
      } else if text[end - 1] == colon {
        index = end
        continue
      }
      if text[index] == UInt8(ascii: "$") || text[index] == UInt8(ascii: "(") {
        index += 1
      } else if index + 1 < end, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "*"),
        text[index + 1] == space
      {
        index += 2
      }
      return index < end ? index : nil
    }
    return nil
  }

  /// Where the cell that begins at `start` ends: at a line's end or a gap of two blanks.
  private static func cellEnd(in text: [UInt8], from start: Int) -> Int {
    var index = start
    while index < text.count, text[index] != newline {
      if text[index] == space, index + 1 < text.count, text[index + 1] == space { break }
      index += 1
    }
    return index
  }

  /// The offset after the first `": "` in `cell`, a label's end.
  private static func labelEnd(in cell: ArraySlice<UInt8>) -> Int? {
    var index = cell.startIndex
    while index + 1 < cell.endIndex {
      if cell[index] == colon, cell[index + 1] == space { return index + 2 }
      index += 1
    }
    return nil
  }

  private static let space = UInt8(ascii: " ")
  private static let newline = UInt8(ascii: "\n")
  private static let colon = UInt8(ascii: ":")
  private static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == newline || byte == UInt8(ascii: "\t") }
}
