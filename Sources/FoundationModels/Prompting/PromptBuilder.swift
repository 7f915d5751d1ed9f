/// A result builder that composes a prompt from strings, conditions, loops and
/// representable values.
///
/// Matches FoundationModels `PromptBuilder`. Components are joined with newlines.
@resultBuilder
public struct PromptBuilder {
  /// Combines the components of a block, in order.
  ///
  /// Matches FoundationModels `PromptBuilder.buildBlock(_:)`.
  public static func buildBlock<each Component: PromptRepresentable>(
    _ components: repeat each Component
  ) -> Prompt {
    var parts: [Prompt] = []
    for component in repeat each components {
      parts.append(component.promptRepresentation)
    }
    return Prompt(joining: parts)
  }

  /// Combines the results of a `for` loop.
  ///
  /// Matches FoundationModels `PromptBuilder.buildArray(_:)`.
  public static func buildArray(_ prompts: [some PromptRepresentable]) -> Prompt {
    Prompt(joining: prompts.map(\.promptRepresentation))
  }

  /// The `if` branch of an `if`/`else`.
  ///
  /// Matches FoundationModels `PromptBuilder.buildEither(first:)`.
  public static func buildEither(first component: some PromptRepresentable) -> Prompt {
    component.promptRepresentation
  }

  /// The `else` branch of an `if`/`else`.
  ///
  /// Matches FoundationModels `PromptBuilder.buildEither(second:)`.
  public static func buildEither(second component: some PromptRepresentable) -> Prompt {
    component.promptRepresentation
  }

  /// An `if` without `else`; nothing when the condition is false.
  ///
  /// Matches FoundationModels `PromptBuilder.buildOptional(_:)`.
  public static func buildOptional(_ prompts: Prompt?) -> Prompt {
    prompts ?? Prompt(segments: [])
  }

  /// A component inside `if #available`.
  ///
  /// Matches FoundationModels `PromptBuilder.buildLimitedAvailability(_:)`.
  public static func buildLimitedAvailability(_ prompts: some PromptRepresentable) -> Prompt {
    prompts.promptRepresentation
  }

  /// A `Prompt` expression, as is.
  ///
  /// Matches FoundationModels `PromptBuilder.buildExpression(_:)`.
  public static func buildExpression(_ expression: Prompt) -> Prompt {
    expression
  }

  /// Any representable expression, as is.
  ///
  /// Matches FoundationModels `PromptBuilder.buildExpression(_:)`.
  @_disfavoredOverload
  public static func buildExpression<Expression: PromptRepresentable>(
    _ expression: Expression
  ) -> Expression {
    expression
  }

  /// Any other expression: rejected with a diagnostic that names the protocol to conform to.
  ///
  /// Matches FoundationModels' unconstrained `PromptBuilder.buildExpression(_:)`, which Apple's
  /// interface lists without saying what it does; we make it the error path (an unavailable
  /// overload ranks below every available one, so it only applies when nothing else does).
  @available(*, unavailable, message: "Conform the type to 'PromptRepresentable' to use it in a prompt builder.")
  public static func buildExpression<T>(_ expression: T) -> Prompt {
    Prompt(segments: [])
  }
}
