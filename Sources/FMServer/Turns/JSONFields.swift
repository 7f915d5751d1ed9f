import JSON

/// Typed reads of a JSON object's members for request decoding, each failure an `APIError`
/// that names the member by its path (`messages[0].content`), and a check that refuses every
/// member the decoder did not read: an unknown parameter is an error, never ignored.
struct JSONFields {
  let path: String
  private let members: [JSONValue.Member]
  private var read: Set<String> = []

  /// - Throws: `APIError` when `value` is not an object or repeats a member.
  init(_ value: JSONValue, path: String) throws {
    guard case .object(let members) = value else {
      throw APIError.invalid("'\(path.isEmpty ? "the body" : path)' must be a JSON object", param: path.nilIfEmpty)
    }
    var seen = Set<String>()
    for member in members where !seen.insert(member.key).inserted {
      throw APIError.invalid("'\(Self.join(path, member.key))' appears twice", param: Self.join(path, member.key))
    }
    self.path = path
    self.members = members
  }

  static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
  func name(_ key: String) -> String { Self.join(path, key) }

  /// The member `key`, nil when absent or JSON null.
  mutating func value(_ key: String) -> JSONValue? {
    read.insert(key)
    guard let value = members.first(where: { $0.key == key })?.value, value != .null else { return nil }
    return value
  }

  mutating func has(_ key: String) -> Bool { members.contains { $0.key == key } }

  mutating func string(_ key: String) throws -> String? {
    guard let value = value(key) else { return nil }
    guard case .string(let text) = value else { throw mistyped(key, "a string") }
    return text
  }

  mutating func bool(_ key: String) throws -> Bool? {
    guard let value = value(key) else { return nil }
    guard case .bool(let flag) = value else { throw mistyped(key, "a boolean") }
    return flag
  }

  mutating func number(_ key: String) throws -> Double? {
    guard let value = value(key) else { return nil }
    guard case .number(let number) = value, let double = Double(number.jsonText), double.isFinite else {
      throw mistyped(key, "a number")
    }
    return double
  }

  mutating func integer(_ key: String) throws -> Int? {
    guard let value = value(key) else { return nil }
    guard case .number(let number) = value, number.isInteger,
      let integer = Int(exactly: Double(number.jsonText) ?? .nan),
      Double(integer).magnitude < 9e15
    else { throw mistyped(key, "an integer") }
    return integer
  }

  mutating func array(_ key: String) throws -> [JSONValue]? {
    guard let value = value(key) else { return nil }
    guard case .array(let elements) = value else { throw mistyped(key, "an array") }
    return elements
  }

  mutating func object(_ key: String) throws -> JSONFields? {
    guard let value = value(key) else { return nil }
    return try JSONFields(value, path: name(key))
  }

  /// Refuses every member that was not read.
  func rejectUnknown() throws {
    if let unknown = members.first(where: { !read.contains($0.key) }) {
      throw APIError.invalid(
        "Unrecognized request argument supplied: '\(name(unknown.key))'", param: name(unknown.key),
        code: "unknown_parameter")
    }
  }

  func mistyped(_ key: String, _ expected: String) -> APIError {
    APIError.invalid("'\(name(key))' must be \(expected)", param: name(key), code: "invalid_type")
  }
}

extension String {
  var nilIfEmpty: String? { isEmpty ? nil : self }
}
