/// Declares a session property: a variable, with its default value, in an extension of
/// `SessionPropertyValues`.
///
/// Matches FoundationModels 27 `@SessionPropertyEntry`, the session's counterpart of SwiftUI's
/// `@Entry`:
///
/// ```swift
/// extension SessionPropertyValues {
///   @SessionPropertyEntry var isExpertMode: Bool = false
/// }
/// ```
///
/// The expansion is a computed property that reads and writes `self[__Key_isExpertMode.self]`
/// and a peer `__Key_isExpertMode: SessionPropertyKey` whose `defaultValue` is the initializer,
/// evaluated on each read of an unset property. The type is required; an optional may omit its
/// default (nil).
@attached(accessor)
@attached(peer, names: prefixed(__Key_))
public macro SessionPropertyEntry() = #externalMacro(module: "FoundationModelsMacros", type: "EntryMacro")

/// Part of `@SessionPropertyEntry`'s expansion: makes a key's `defaultValue` a getter that
/// evaluates its initializer.
///
/// Matches FoundationModels 27 `@__SessionPropertyEntryDefaultValue`.
@attached(accessor)
public macro __SessionPropertyEntryDefaultValue() =
  #externalMacro(module: "FoundationModelsMacros", type: "SessionPropertyEntryDefaultValueMacro")
