/// A parsed JSON value that keeps object member order and exact numbers.
///
/// Foundation's `JSONSerialization` loses both: object order matters because schema
/// properties are generated in declaration order, and numbers must stay exact for bounds.
public indirect enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(ExactDecimal)
  case string(String)
  case array([JSONValue])
  /// Members in document order.
  ///
  /// Duplicate keys are kept as written.
  case object([Member])

  /// One `"key": value` pair of an object.
  public struct Member: Sendable, Hashable {
    public var key: String
    public var value: JSONValue
    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// The value of the first member named `key`, when this is an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key.hasSameScalars(as: key) }?.value
  }

  /// JSON equality as JSON Schema defines it for `const` and `enum`: numbers compare by
  /// value, object members compare regardless of order.
  public func isJSONEqual(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a.hasSameScalars(as: b)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isJSONEqual(to: $1) }
    case (.object(let a), .object(let b)):
      guard a.count == b.count else { return false }
      return a.allSatisfy { member in
        b.contains { $0.key.hasSameScalars(as: member.key) && $0.value.isJSONEqual(to: member.value) }
      }
    default: return false
    }
  }

  /// A short name of the value's JSON type, for messages.
  var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension String {
  /// Equality of Unicode scalars, as JSON defines string equality.
  ///
  /// Swift's `==` uses canonical equivalence ("ä" precomposed equals "a" + combining diaeresis),
  /// which JSON and JSON Schema do not. Package-wide, for `SchemaCorpus`'s `CanonicalSerializer`.
  package func hasSameScalars(as other: String) -> Bool {
    unicodeScalars.elementsEqual(other.unicodeScalars)
  }
}
