extension GeneratedContent {
  /// The shape of a piece of generated content.
  ///
  /// Matches FoundationModels `GeneratedContent.Kind`.
  @nonexhaustive
  public enum Kind: Equatable, Sendable {
    /// A null value.
    case null
    /// A Boolean value.
    case bool(Bool)
    /// A number; integers are carried as `Double` too.
    case number(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case array([GeneratedContent])
    /// Key-value pairs; `orderedKeys` gives the order of the keys.
    case structure(properties: [String: GeneratedContent], orderedKeys: [String])
  }
}

extension GeneratedContent.Kind {
  /// Whether every nested value is complete (true for scalars).
  var childrenAreComplete: Bool {
    switch self {
    case .array(let elements):
      return elements.allSatisfy(\.isComplete)
    case .structure(let properties, _):
      return properties.values.allSatisfy(\.isComplete)
    case .null, .bool, .number, .string:
      return true
    }
  }

  /// A short name of the kind, for error messages.
  var name: String {
    switch self {
    case .null: return "null"
    case .bool: return "a Boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .structure: return "a structure"
    }
  }
}
