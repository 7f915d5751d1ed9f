extension LanguageModelSession {
  /// A property of the session that is evaluating the enclosing dynamic instructions or profile,
  /// or calling the enclosing tool.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.SessionProperty`. The session binds its
  /// ``SessionPropertyValues`` while it evaluates dynamic instructions and profiles and while it
  /// calls tools (the tool's child tasks included); a wrapper reads and writes that session's
  /// value, and a write is seen by the session's next evaluation — the next round of the tool
  /// loop in progress too. Outside those calls (like SwiftUI's environment outside a view
  /// update) a read returns the key's default value, and a write is a programmer error that
  /// traps.
  @propertyWrapper
  public struct SessionProperty<Value> {
    // A key path is immutable; only one built from a subscript with non-Sendable arguments holds
    // state, and a session property's is a property's (Apple's wrapper is Sendable too).
    nonisolated(unsafe) let keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>

    /// A wrapper for the property at `keyPath`.
    public init(_ keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>) {
      self.keyPath = keyPath
    }

    public var wrappedValue: Value {
      get { (SessionPropertyValues.current ?? .detached)[keyPath: keyPath] }
      nonmutating set {
        guard let values = SessionPropertyValues.current else {
          preconditionFailure(
            "A @SessionProperty was written outside a session's evaluation or tool call; write session.properties instead."
          )
        }
        values[keyPath: keyPath] = newValue
      }
    }
  }
}

extension LanguageModelSession.SessionProperty: Sendable where Value: Sendable {}

extension DynamicInstructions {
  /// Matches FoundationModels 27 `DynamicInstructions.SessionProperty`.
  public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension Tool {
  /// Matches FoundationModels 27 `Tool.SessionProperty`.
  public typealias SessionProperty = LanguageModelSession.SessionProperty
}
