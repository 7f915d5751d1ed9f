import JSON

extension ChatTemplate {
  /// The strings of the tool definitions and call arguments (keys too), as `tojson` writes
  /// them inside a JSON string.
  static func jsonStrings(in messages: [ChatMessage], tools: [JSONValue]) -> Set<String> {
    var strings = Set<String>()
    func collect(_ value: JSONValue) {
      switch value {
      case .string(let text): strings.insert(escaped(text))
      case .array(let elements): elements.forEach(collect)
      case .object(let members):
        for member in members {
          strings.insert(escaped(member.key))
          collect(member.value)
        }
      case .null, .bool, .number: break
      }
    }
    tools.forEach(collect)
    for call in messages.flatMap(\.toolCalls) {
      if let arguments = try? JSONValue(parsing: call.argumentsJSON) { collect(arguments) }
    }
    return strings
  }

  /// A string's text inside a JSON string literal, as `tojson` writes it (no quotes).
  private static func escaped(_ text: String) -> String {
    String(JSONValue.string(text).compactText.dropFirst().dropLast())
  }
}
