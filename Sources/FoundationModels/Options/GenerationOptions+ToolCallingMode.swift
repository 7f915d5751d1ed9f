extension GenerationOptions {
  /// Whether the model may, must or must not call tools.
  ///
  /// Matches FoundationModels 27 `GenerationOptions.ToolCallingMode` (no public initializer):
  /// `allowed` leaves the choice to the model, `required` makes it call at least one tool,
  /// `disallowed` keeps it from calling any. `nil` in the options means `allowed`.
  public struct ToolCallingMode: Sendable, Equatable {
    /// The mode, for executors to map onto their API (`auto`, `required`, `none`).
    public var kind: Kind

    /// The model may call tools.
    public static let allowed = ToolCallingMode(kind: .allowed)
    /// The model must call at least one tool.
    public static let required = ToolCallingMode(kind: .required)
    /// The model must not call tools.
    public static let disallowed = ToolCallingMode(kind: .disallowed)

    /// Matches FoundationModels 27 `GenerationOptions.ToolCallingMode.Kind`.
    @nonexhaustive
    public enum Kind: Sendable, Equatable, Hashable {
      case allowed
      case required
      case disallowed
    }
  }
}
