/// Turns the bytes a terminal sends in raw mode into `KeyEvent`s.
///
/// Bytes arrive in arbitrary chunks: an escape sequence or a multi-byte UTF-8 character may be
/// split across two reads, so the decoder keeps an incomplete tail until the next chunk.
/// Between `pasteStart` and `pasteEnd` every byte is text (a pasted newline is text, not Enter),
/// which is what bracketed paste is for.
struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []
  private var pasting = false

  /// Decodes `bytes` (appended to any incomplete tail of the previous call).
  mutating func decode(_ bytes: some Sequence<UInt8>) -> [KeyEvent] {
    pending.append(contentsOf: bytes)
    var events: [KeyEvent] = []
    var index = 0
    while index < pending.count {
      guard let (event, length) = decodeOne(pending[index...]) else { break }
      index += length
      append(event, to: &events)
    }
    pending.removeFirst(index)
    return events
  }

  /// Decodes what is left as if no more bytes will come (a lone ESC is then the Escape key).
  mutating func flush() -> [KeyEvent] {
    var events: [KeyEvent] = []
    if !pending.isEmpty, pending.first == 0x1B { events.append(.ignored) }
    pending.removeAll()
    return events
  }

  /// Merges consecutive text so a paste or a fast typist becomes one insertion.
  private func append(_ event: KeyEvent, to events: inout [KeyEvent]) {
    if case .text(let new) = event, case .text(let old)? = events.last {
      events[events.count - 1] = .text(old + new)
    } else {
      events.append(event)
    }
  }

  /// The first event of `bytes` and how many bytes it used, or nil when they are incomplete.
  private mutating func decodeOne(_ bytes: ArraySlice<UInt8>) -> (KeyEvent, Int)? {
    guard let first = bytes.first else { return nil }
    if first == 0x1B { return decodeEscape(bytes) }
    if pasting {
      // Inside a paste, line breaks are content; CR is how most terminals paste them.
      if first == 0x0D || first == 0x0A { return (.text("\n"), 1) }
      if first < 0x20 || first == 0x7F { return (.ignored, 1) }
      return decodeText(bytes)
    }
    switch first {
    case 0x01: return (.home, 1)
    case 0x02: return (.left, 1)
    case 0x03: return (.interrupt, 1)
    case 0x04: return (.endOfInput, 1)
    case 0x05: return (.end, 1)
    case 0x06: return (.right, 1)
    case 0x08, 0x7F: return (.backspace, 1)
    case 0x0A, 0x0D: return (.enter, 1)
    case 0x0B: return (.killToEnd, 1)
    case 0x0C: return (.clearScreen, 1)
    case 0x0E: return (.down, 1)
    case 0x10: return (.up, 1)
    case 0x15: return (.killToStart, 1)
    case 0x17: return (.killWordBackward, 1)
    case 0x00..<0x20: return (.ignored, 1)
    default: return decodeText(bytes)
    }
  }

  /// One UTF-8 character; an invalid byte becomes U+FFFD rather than stalling the decoder.
  private func decodeText(_ bytes: ArraySlice<UInt8>) -> (KeyEvent, Int)? {
    guard let first = bytes.first else { return nil }
    let length =
      switch first {
      case 0xC0..<0xE0: 2
      case 0xE0..<0xF0: 3
      case 0xF0..<0xF8: 4
      default: 1
      }
    guard bytes.count >= length else { return nil }
    let character = String(decoding: bytes.prefix(length), as: UTF8.self)
    return (.text(character), length)
  }

  /// CSI (`ESC [ … final`), SS3 (`ESC O x`) and Alt+key (`ESC x`) sequences.
  private mutating func decodeEscape(_ bytes: ArraySlice<UInt8>) -> (KeyEvent, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let second = bytes[start + 1]
    switch second {
    case UInt8(ascii: "["):
      // Parameters and intermediates are 0x20...0x3F; the final byte is 0x40...0x7E.
      var end = start + 2
      while end < bytes.endIndex, (0x20...0x3F).contains(bytes[end]) { end += 1 }
      guard end < bytes.endIndex else { return nil }
      let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
      return (csiEvent(parameters: parameters, final: bytes[end]), end - start + 1)
    case UInt8(ascii: "O"):
      guard bytes.count >= 3 else { return nil }
      // SS3 arrows and Home/End (application cursor mode) use the same final bytes as CSI.
      return (csiEvent(parameters: "", final: bytes[start + 2]), 3)
    case UInt8(ascii: "b"):
      return (.wordLeft, 2)
    case UInt8(ascii: "f"):
      return (.wordRight, 2)
    case 0x7F:
      return (.killWordBackward, 2)
    default:
      return (.ignored, 2)
    }
  }

  private mutating func csiEvent(parameters: String, final: UInt8) -> KeyEvent {
    // Ctrl and Alt modifiers arrive as a second parameter (`1;5C`); they make arrows move by word.
    let parts = parameters.split(separator: ";")
    let modified = parts.count > 1
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return modified ? .wordRight : .right
    case UInt8(ascii: "D"): return modified ? .wordLeft : .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "~"):
      switch parts.first {
      case "1", "7": return .home
      case "4", "8": return .end
      case "3": return .delete
      case "200":
        pasting = true
        return .pasteStart
      case "201":
        pasting = false
        return .pasteEnd
      default: return .ignored
      }
    default: return .ignored
    }
  }
}
