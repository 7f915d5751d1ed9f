extension JSONValue {
  /// Compact JSON text (no whitespace), members in their stored order, strings escaped
  /// the one way the constraint engine generates them (see `appendJSONString`).
  public var compactText: String {
    var out: [UInt8] = []
    appendCompact(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends compact JSON bytes.
  public func appendCompact(to out: inout [UInt8]) {
    switch self {
    case .null: out += Array("null".utf8)
    case .bool(let b): out += Array((b ? "true" : "false").utf8)
    case .number(let n): out += Array(n.jsonText.utf8)
    case .string(let s): JSONValue.appendJSONString(s, to: &out)
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      for (i, e) in elements.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        e.appendCompact(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (i, m) in members.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSONValue.appendJSONString(m.key, to: &out)
        out.append(UInt8(ascii: ":"))
        m.value.appendCompact(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Appends a quoted JSON string in canonical form: `"` and `\` escaped with a backslash,
  /// control characters as `\n`, `\t`, `\r`, `\b`, `\f` or `\u00XX`, everything else raw UTF-8.
  public static func appendJSONString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for b in s.utf8 {
      switch b {
      case UInt8(ascii: "\""): out += [92, 34]
      case UInt8(ascii: "\\"): out += [92, 92]
      case 0x0A: out += [92, UInt8(ascii: "n")]
      case 0x0D: out += [92, UInt8(ascii: "r")]
      case 0x09: out += [92, UInt8(ascii: "t")]
      case 0x08: out += [92, UInt8(ascii: "b")]
      case 0x0C: out += [92, UInt8(ascii: "f")]
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]]
      default: out.append(b)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
