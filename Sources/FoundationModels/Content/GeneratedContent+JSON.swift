extension GeneratedContent {
  /// The content as compact JSON, with object keys in their `orderedKeys` order.
  ///
  /// Matches FoundationModels `GeneratedContent.jsonString`. Integral numbers print without a
  /// fraction (`3`, not `3.0`); numbers that JSON cannot represent (NaN, infinity) print as
  /// `null`. Incomplete content prints as if it were complete (strings closed, containers closed).
  public var jsonString: String {
    var output = ""
    JSONWriter.write(self, to: &output)
    return output
  }
}

/// Writes ``GeneratedContent`` as compact JSON.
enum JSONWriter {
  static func write(_ content: GeneratedContent, to output: inout String) {
    switch content.kind {
    case .null:
      output += "null"
    case .bool(let value):
      output += value ? "true" : "false"
    case .number(let value):
      output += format(value)
    case .string(let value):
      writeString(value, to: &output)
    case .array(let elements):
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        write(element, to: &output)
      }
      output += "]"
    case .structure(let properties, let orderedKeys):
      output += "{"
      var first = true
      for key in orderedKeys {
        guard let value = properties[key] else { continue }
        if !first { output += "," }
        first = false
        writeString(key, to: &output)
        output += ":"
        write(value, to: &output)
      }
      output += "}"
    }
  }

  /// Formats a number the way JSON expects: integers without a fraction.
  static func format(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    // 2^53: every integer below it is exact in a Double, so it prints without rounding.
    if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
      return String(Int64(value))
    }
    return "\(value)"
  }

  /// Writes a JSON string literal with the escapes JSON requires.
  static func writeString(_ value: String, to output: inout String) {
    output += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default:
        output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  /// A JSON string literal for `value`.
  static func quoted(_ value: String) -> String {
    var output = ""
    writeString(value, to: &output)
    return output
  }
}
