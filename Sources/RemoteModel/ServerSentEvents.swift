import Foundation

/// Splits a `text/event-stream` body into the data of its events, as bytes arrive in chunks of
/// any size: `data:` lines (several are joined by a line break), events ending at a blank line,
/// comments (`:`) and other fields ignored, `\n`, `\r\n` and `\r` all ending a line.
package struct ServerSentEventParser {
  private var buffer: [UInt8] = []
  private var data: [String] = []
  private var lastWasCarriageReturn = false

  package init() {}

  /// The events `chunk` completes.
  package mutating func feed(_ chunk: some Sequence<UInt8>) -> [String] {
    var events: [String] = []
    for byte in chunk {
      if byte == UInt8(ascii: "\n") && lastWasCarriageReturn {
        lastWasCarriageReturn = false
        continue
      }
      lastWasCarriageReturn = byte == UInt8(ascii: "\r")
      guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
        buffer.append(byte)
        continue
      }
      let line = String(decoding: buffer, as: UTF8.self)
      buffer.removeAll(keepingCapacity: true)
      if line.isEmpty {
        if !data.isEmpty { events.append(data.joined(separator: "\n")) }
        data.removeAll()
      } else if line.hasPrefix("data:") {
        var value = line.dropFirst(5)
        if value.first == " " { value = value.dropFirst() }
        data.append(String(value))
      }
    }
    return events
  }

  /// The event a stream that ends without a final blank line leaves.
  package mutating func finish() -> [String] {
    var events = feed([UInt8(ascii: "\n")])
    if !data.isEmpty { events.append(data.joined(separator: "\n")) }
    data.removeAll()
    return events
  }
}
