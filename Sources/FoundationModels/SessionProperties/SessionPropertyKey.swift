/// The key of a session property: its type names it, and gives the value a session starts with.
///
/// Matches FoundationModels 27 `SessionPropertyKey`. Declare keys with `@SessionPropertyEntry`
/// in an extension of ``SessionPropertyValues``, or write one and a computed property that reads
/// and writes `self[Key.self]`.
public protocol SessionPropertyKey: SendableMetatype {
  /// The type of the property's value.
  associatedtype Value

  /// The value of the property in a session that has not set it.
  static var defaultValue: Value { get }
}
