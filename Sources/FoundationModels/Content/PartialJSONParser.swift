/// Parses JSON that may stop anywhere — the growing text of a streamed response — into
/// ``GeneratedContent``.
///
/// Rules for a prefix of valid JSON:
/// - an unterminated string keeps the text read so far (a half-read escape is dropped);
/// - an unterminated array or object keeps its finished members;
/// - a key with no value yet, or with a partial literal (`tru`, `nul`) or a lone `-`, is absent;
/// - a number that ends the input inside a container is kept but marked incomplete, since more
///   digits may follow; a number that is the whole document is complete.
///
/// Every value that is not finished is marked `isComplete == false`, and so is every container
/// around it. Text that cannot begin valid JSON throws `decodingFailure`.
///
/// The integrator builds `PartiallyGenerated` snapshots by calling `GeneratedContent(json:)`
/// with the cumulative output after each token.
struct PartialJSONParser {
  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0
  private static let maximumDepth = 512

  private init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// Parses `text`, which must hold one JSON value or a prefix of one.
  static func parse(_ text: String) throws -> GeneratedContent {
    var parser = PartialJSONParser(text)
    parser.skipWhitespace()
    guard var content = try parser.parseValue() else {
      throw parser.failure("no JSON value")
    }
    parser.skipWhitespace()
    guard parser.atEnd else {
      throw parser.failure("unexpected characters after the JSON value")
    }
    if case .number = content.kind, !content.isComplete {
      // The whole document is the number, and the document ended: it is finished.
      content = GeneratedContent(kind: content.kind, isComplete: true)
    }
    return content
  }

  // MARK: - Values

  /// Parses a value; `nil` when the input ends before any part of a value can be kept.
  private mutating func parseValue() throws -> GeneratedContent? {
    guard let byte = peek else { return nil }
    switch byte {
    case UInt8(ascii: "{"):
      return try nested { try $0.parseObject() }
    case UInt8(ascii: "["):
      return try nested { try $0.parseArray() }
    case UInt8(ascii: "\""):
      let (text, complete) = try parseString()
      return GeneratedContent(kind: .string(text), isComplete: complete)
    case UInt8(ascii: "t"):
      return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"):
      return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"):
      return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      throw failure("unexpected character '\(Character(UnicodeScalar(byte)))'")
    }
  }

  private mutating func nested(
    _ body: (inout PartialJSONParser) throws -> GeneratedContent
  ) throws -> GeneratedContent {
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else { throw failure("JSON nested too deeply") }
    return try body(&self)
  }

  private mutating func parseObject() throws -> GeneratedContent {
    index += 1  // {
    var builder = GeneratedContent.StructureBuilder()
    func partial() -> GeneratedContent { GeneratedContent(kind: builder.kind, isComplete: false) }
    skipWhitespace()
    if peek == UInt8(ascii: "}") {
      index += 1
      return GeneratedContent(kind: builder.kind, isComplete: true)
    }
    while true {
      skipWhitespace()
      guard let byte = peek else { return partial() }
      guard byte == UInt8(ascii: "\"") else { throw failure("expected a property name") }
      let (key, keyComplete) = try parseString()
      skipWhitespace()
      guard keyComplete, let colon = peek else { return partial() }
      guard colon == UInt8(ascii: ":") else { throw failure("expected ':' after property name") }
      index += 1
      skipWhitespace()
      guard let value = try parseValue() else { return partial() }
      builder.set(key, value)
      skipWhitespace()
      guard let separator = peek else { return partial() }
      index += 1
      switch separator {
      case UInt8(ascii: ","):
        continue
      case UInt8(ascii: "}"):
        return GeneratedContent(kind: builder.kind, isComplete: true)
      default:
        index -= 1
        throw failure("expected ',' or '}' in object")
      }
    }
  }

  private mutating func parseArray() throws -> GeneratedContent {
    index += 1  // [
    var elements: [GeneratedContent] = []
    func partial() -> GeneratedContent { GeneratedContent(kind: .array(elements), isComplete: false) }
    skipWhitespace()
    if peek == UInt8(ascii: "]") {
      index += 1
      return GeneratedContent(kind: .array(elements), isComplete: true)
    }
    while true {
      skipWhitespace()
      guard let element = try parseValue() else { return partial() }
      elements.append(element)
      skipWhitespace()
      guard let separator = peek else { return partial() }
      index += 1
      switch separator {
      case UInt8(ascii: ","):
        continue
      case UInt8(ascii: "]"):
        return GeneratedContent(kind: .array(elements), isComplete: true)
      default:
        index -= 1
        throw failure("expected ',' or ']' in array")
      }
    }
  }

  /// Reads `literal` (`true`, `false`, `null`); `nil` when the input stops inside it.
  private mutating func parseLiteral(
    _ literal: String, _ kind: GeneratedContent.Kind
  ) throws -> GeneratedContent? {
    for expected in literal.utf8 {
      guard let byte = peek else { return nil }
      guard byte == expected else { throw failure("invalid literal, expected '\(literal)'") }
      index += 1
    }
    return GeneratedContent(kind: kind, isComplete: true)
  }

  /// Reads a number by JSON's grammar.
  ///
  /// At the end of input it keeps the longest valid prefix (`1.` reads as 1) and marks it
  /// incomplete; a lone `-` reads as absent.
  private mutating func parseNumber() throws -> GeneratedContent? {
    let start = index
    var validEnd: Int?  // end of the longest prefix that is a complete JSON number
    func digits(_ parser: inout PartialJSONParser) -> Int {
      var count = 0
      while let byte = parser.peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        parser.index += 1
        count += 1
      }
      return count
    }
    if peek == UInt8(ascii: "-") { index += 1 }
    if peek == UInt8(ascii: "0") {
      index += 1
    } else if digits(&self) == 0 {
      if atEnd { return nil }
      throw failure("invalid number")
    }
    validEnd = index
    if peek == UInt8(ascii: ".") {
      index += 1
      if digits(&self) == 0, !atEnd { throw failure("invalid number: expected digits after '.'") }
      if bytes[index - 1] != UInt8(ascii: ".") { validEnd = index }
    }
    if let byte = peek, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      index += 1
      if let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
      if digits(&self) == 0 {
        if !atEnd { throw failure("invalid number: expected digits in exponent") }
      } else {
        validEnd = index
      }
    }
    let end = validEnd ?? index
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    guard let value = Double(text) else { throw failure("invalid number '\(text)'") }
    return GeneratedContent(kind: .number(value), isComplete: !atEnd)
  }

  /// Reads a string literal; `complete` is false when the input stops before the closing quote.
  private mutating func parseString() throws -> (text: String, complete: Bool) {
    index += 1  // opening quote
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flushRun(_ parser: PartialJSONParser) {
      guard runStart < parser.index else { return }
      scalars.append(
        contentsOf: String(decoding: parser.bytes[runStart..<parser.index], as: UTF8.self)
          .unicodeScalars)
    }
    while let byte = peek {
      switch byte {
      case UInt8(ascii: "\""):
        flushRun(self)
        index += 1
        return (String(scalars), true)
      case UInt8(ascii: "\\"):
        flushRun(self)
        index += 1
        guard let scalar = try parseEscape() else { return (String(scalars), false) }
        scalars.append(scalar)
        runStart = index
      default:
        index += 1
      }
    }
    flushRun(self)
    return (String(scalars), false)
  }

  /// Reads the escape after a backslash; `nil` when the input stops inside it.
  private mutating func parseEscape() throws -> Unicode.Scalar? {
    guard let byte = peek else { return nil }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      guard let unit = try parseHex4() else { return nil }
      if (0xD800...0xDBFF).contains(unit) {
        // A high surrogate must be followed by "\u" and a low surrogate.
        guard let backslash = peek else { return nil }
        guard backslash == UInt8(ascii: "\\") else { return "\u{FFFD}" }
        index += 1
        guard let u = peek else { return nil }
        guard u == UInt8(ascii: "u") else { throw failure("invalid escape in string") }
        index += 1
        guard let low = try parseHex4() else { return nil }
        guard (0xDC00...0xDFFF).contains(low) else { return "\u{FFFD}" }
        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
      }
      return Unicode.Scalar(unit) ?? "\u{FFFD}"
    default:
      throw failure("invalid escape '\\\(Character(UnicodeScalar(byte)))' in string")
    }
  }

  private mutating func parseHex4() throws -> UInt16? {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard let byte = peek else { return nil }
      guard let digit = Character(UnicodeScalar(byte)).hexDigitValue else {
        throw failure("invalid \\u escape in string")
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  // MARK: - Input

  private var atEnd: Bool { index >= bytes.count }
  private var peek: UInt8? { atEnd ? nil : bytes[index] }

  private mutating func skipWhitespace() {
    while let byte = peek,
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
        || byte == UInt8(ascii: "\t")
    {
      index += 1
    }
  }

  private func failure(_ message: String) -> LanguageModelSession.GenerationError {
    .decodingFailure(.init(debugDescription: "Invalid JSON at offset \(index): \(message)."))
  }
}
