import JSON

/// One object member.
func member(_ key: String, _ value: JSONValue) -> JSONValue.Member {
  JSONValue.Member(key: key, value: value)
}

extension JSONValue {
  /// An integer.
  static func integer(_ value: Int) -> JSONValue { .number(ExactDecimal(value)) }

  /// A finite number, as Swift writes it.
  static func double(_ value: Double) -> JSONValue {
    ExactDecimal(jsonText: String(value)).map(JSONValue.number) ?? .null
  }

  /// A string, or null.
  static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

  /// The members of an object (none for any other value).
  var members: [Member] {
    guard case .object(let members) = self else { return [] }
    return members
  }

  /// The elements of an array (none for any other value).
  var elements: [JSONValue] {
    guard case .array(let elements) = self else { return [] }
    return elements
  }

  /// The text of a string value.
  var stringValue: String? {
    guard case .string(let text) = self else { return nil }
    return text
  }

  /// This object with `key` set to `value` (replaced where it is, appended where it is not).
  func setting(_ key: String, _ value: JSONValue) -> JSONValue {
    var members = members
    if let index = members.firstIndex(where: { $0.key == key }) {
      members[index].value = value
    } else {
      members.append(member(key, value))
    }
    return .object(members)
  }
}
