import Foundation

/// An error found while reading JSON text.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Byte offset of the problem.
  public var offset: Int
  public var message: String
  public var description: String { "JSON parse error at byte \(offset): \(message)" }
}

extension JSONValue {
  /// Parses JSON text (RFC 8259, whitespace allowed), keeping member order and exact numbers.
  /// - Throws: `JSONParseError` when the text is not one complete JSON value.
  public init(parsing text: String) throws {
    try self.init(parsing: Array(text.utf8))
  }

  /// Parses UTF-8 JSON bytes.
  public init(parsing data: Data) throws {
    try self.init(parsing: [UInt8](data))
  }

  /// Parses UTF-8 JSON bytes.
  public init(parsing bytes: [UInt8]) throws {
    var reader = JSONReader(bytes: bytes)
    reader.skipWhitespace()
    let value = try reader.readValue(depth: 0)
    reader.skipWhitespace()
    guard reader.position == bytes.count else { throw reader.error("trailing characters") }
    self = value
  }
}

/// A recursive-descent reader over UTF-8 bytes.
private struct JSONReader {
  let bytes: [UInt8]
  var position = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  func error(_ message: String) -> JSONParseError {
    JSONParseError(offset: position, message: message)
  }

  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  mutating func expect(_ literal: String) throws {
    for b in literal.utf8 {
      guard position < bytes.count, bytes[position] == b else { throw error("expected \(literal)") }
      position += 1
    }
  }

  mutating func readValue(depth: Int) throws -> JSONValue {
    // Why: deeply nested input would otherwise overflow the stack.
    guard depth < 512 else { throw error("nesting too deep") }
    guard position < bytes.count else { throw error("unexpected end") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try readObject(depth: depth)
    case UInt8(ascii: "["): return try readArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"): try expect("true"); return .bool(true)
    case UInt8(ascii: "f"): try expect("false"); return .bool(false)
    case UInt8(ascii: "n"): try expect("null"); return .null
    default: return .number(try readNumber())
    }
  }

  mutating func readObject(depth: Int) throws -> JSONValue {
    position += 1
    var members: [JSONValue.Member] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw error("expected a key")
      }
      let key = try readString()
      skipWhitespace()
      try expect(":")
      skipWhitespace()
      members.append(.init(key: key, value: try readValue(depth: depth + 1)))
      skipWhitespace()
      guard position < bytes.count else { throw error("unterminated object") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      } else {
        throw error("expected , or }")
      }
    }
  }

  mutating func readArray(depth: Int) throws -> JSONValue {
    position += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try readValue(depth: depth + 1))
      skipWhitespace()
      guard position < bytes.count else { throw error("unterminated array") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(elements)
      } else {
        throw error("expected , or ]")
      }
    }
  }

  mutating func readNumber() throws -> ExactDecimal {
    let start = position
    while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    guard let value = ExactDecimal(jsonText: text) else {
      position = start
      throw error("invalid value")
    }
    return value
  }

  static func isNumberByte(_ b: UInt8) -> Bool {
    (b >= 48 && b <= 57) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
      || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
  }

  mutating func readString() throws -> String {
    position += 1
    var runStart = position
    var result = ""
    while true {
      guard position < bytes.count else { throw error("unterminated string") }
      let b = bytes[position]
      if b == UInt8(ascii: "\"") {
        result += String(decoding: bytes[runStart..<position], as: UTF8.self)
        position += 1
        return result
      }
      if b < 0x20 { throw error("control character in string") }
      if b == UInt8(ascii: "\\") {
        result += String(decoding: bytes[runStart..<position], as: UTF8.self)
        position += 1
        guard position < bytes.count else { throw error("unterminated escape") }
        let e = bytes[position]
        position += 1
        switch e {
        case UInt8(ascii: "\""): result += "\""
        case UInt8(ascii: "\\"): result += "\\"
        case UInt8(ascii: "/"): result += "/"
        case UInt8(ascii: "b"): result += "\u{08}"
        case UInt8(ascii: "f"): result += "\u{0C}"
        case UInt8(ascii: "n"): result += "\n"
        case UInt8(ascii: "r"): result += "\r"
        case UInt8(ascii: "t"): result += "\t"
        case UInt8(ascii: "u"):
          var code = try readHex4()
          if (0xD800..<0xDC00).contains(code), position + 1 < bytes.count,
            bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
          {
            position += 2
            let low = try readHex4()
            if (0xDC00..<0xE000).contains(low) {
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
          }
          result.unicodeScalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
        default: throw error("invalid escape")
        }
        runStart = position
        continue
      }
      position += 1
    }
  }

  mutating func readHex4() throws -> UInt32 {
    guard position + 4 <= bytes.count else { throw error("short \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let b = bytes[position]
      let digit: UInt32
      switch b {
      case 48...57: digit = UInt32(b - 48)
      case 65...70: digit = UInt32(b - 55)
      case 97...102: digit = UInt32(b - 87)
      default: throw error("bad hex digit")
      }
      value = value * 16 + digit
      position += 1
    }
    return value
  }
}
