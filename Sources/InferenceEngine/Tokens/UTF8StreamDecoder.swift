/// Turns a stream of token byte pieces into text without ever splitting a code point.
///
/// A token can end in the middle of a multi-byte UTF-8 sequence (byte-level BPE does this for
/// emoji and CJK text). The decoder holds such trailing bytes back until the sequence is complete.
public struct UTF8StreamDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  /// Appends bytes and returns the text that is now complete.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> String {
    pending.append(contentsOf: bytes)
    let complete = completePrefixLength(of: pending)
    guard complete > 0 else { return "" }
    let text = String(decoding: pending[..<complete], as: UTF8.self)
    pending.removeFirst(complete)
    return text
  }

  /// Returns what is left at the end of the stream; invalid bytes become U+FFFD.
  public mutating func finish() -> String {
    defer { pending.removeAll() }
    return String(decoding: pending, as: UTF8.self)
  }

  /// The length of the longest prefix that does not end inside an incomplete sequence.
  private func completePrefixLength(of bytes: [UInt8]) -> Int {
    // Look back at most 3 bytes for the lead byte of the last sequence.
    var index = bytes.count - 1
    let lowest = max(0, bytes.count - 4)
    while index >= lowest {
      let byte = bytes[index]
      if byte & 0xC0 != 0x80 {
        let expected: Int
        switch byte {
        case 0xF0...0xF7: expected = 4
        case 0xE0...0xEF: expected = 3
        case 0xC0...0xDF: expected = 2
        default: expected = 1
        }
        return bytes.count - index >= expected ? bytes.count : index
      }
      index -= 1
    }
    // Only continuation bytes: they can never complete, so let them through as U+FFFD.
    return bytes.count
  }
}
