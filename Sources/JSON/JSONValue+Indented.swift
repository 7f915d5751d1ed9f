extension JSONValue {
  /// JSON text with each array element and object member on a line of its own, indented by
  /// `width` spaces a level, `": "` after keys, and empty arrays and objects as `[]` and `{}`:
  /// as llama.cpp's `json::dump(width)` and Python's `json.dumps(indent=width)` write it.
  public func indentedText(width: Int = 2) -> String {
    var out: [UInt8] = []
    appendIndented(to: &out, width: width, level: 0)
    return String(decoding: out, as: UTF8.self)
  }

  private func appendIndented(to out: inout [UInt8], width: Int, level: Int) {
    func newline(_ level: Int) {
      out.append(UInt8(ascii: "\n"))
      out += repeatElement(UInt8(ascii: " "), count: width * level)
    }
    switch self {
    case .array(let elements) where !elements.isEmpty:
      out.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        newline(level + 1)
        element.appendIndented(to: &out, width: width, level: level + 1)
      }
      newline(level)
      out.append(UInt8(ascii: "]"))
    case .object(let members) where !members.isEmpty:
      out.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        newline(level + 1)
        JSONValue.appendJSONString(member.key, to: &out)
        out += Array(": ".utf8)
        member.value.appendIndented(to: &out, width: width, level: level + 1)
      }
      newline(level)
      out.append(UInt8(ascii: "}"))
    case .null, .bool, .number, .string, .array, .object:
      appendCompact(to: &out)
    }
  }
}
