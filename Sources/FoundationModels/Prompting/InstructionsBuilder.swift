/// A result builder that composes instructions from strings, conditions, loops and
/// representable values.
///
/// Matches FoundationModels `InstructionsBuilder`. Components are joined with newlines.
@resultBuilder
public struct InstructionsBuilder {
  /// Combines the components of a block, in order.
  ///
  /// Matches FoundationModels `InstructionsBuilder.buildBlock(_:)`.
  public static func buildBlock<each Component: InstructionsRepresentable>(
    _ components: repeat each Component
  ) -> Instructions {
    var parts: [Instructions] = []
    for component in repeat each components {
      parts.append(component.instructionsRepresentation)
    }
    return Instructions(joining: parts)
  }

  /// Combines the results of a `for` loop.
  ///
  /// Matches FoundationModels `InstructionsBuilder.buildArray(_:)`.
  public static func buildArray(_ instructions: [some InstructionsRepresentable]) -> Instructions {
    Instructions(joining: instructions.map(\.instructionsRepresentation))
  }

  /// The `if` branch of an `if`/`else`.
  ///
  /// Matches FoundationModels `InstructionsBuilder.buildEither(first:)`.
  public static func buildEither(first component: some InstructionsRepresentable) -> Instructions {
    component.instructionsRepresentation
  }

  /// The `else` branch of an `if`/`else`.
  ///
  /// Matches FoundationModels `InstructionsBuilder.buildEither(second:)`.
  public static func buildEither(second component: some InstructionsRepresentable) -> Instructions {
    component.instructionsRepresentation
  }

  /// An `if` without `else`; nothing when the condition is false.
  ///
  /// Matches FoundationModels `InstructionsBuilder.buildOptional(_:)`.
  public static func buildOptional(_ instructions: Instructions?) -> Instructions {
    instructions ?? Instructions(segments: [])
  }

  /// A component inside `if #available`.
  ///
  /// Matches FoundationModels `InstructionsBuilder.buildLimitedAvailability(_:)`.
  public static func buildLimitedAvailability(_ instructions: some InstructionsRepresentable) -> Instructions {
    instructions.instructionsRepresentation
  }

  /// A `Instructions` expression, as is.
  ///
  /// Matches FoundationModels `InstructionsBuilder.buildExpression(_:)`.
  public static func buildExpression(_ expression: Instructions) -> Instructions {
    expression
  }

  /// Any representable expression, as is.
  ///
  /// Matches FoundationModels `InstructionsBuilder.buildExpression(_:)`.
  @_disfavoredOverload
  public static func buildExpression<Expression: InstructionsRepresentable>(
    _ expression: Expression
  ) -> Expression {
    expression
  }

  /// Any other expression: rejected with a diagnostic that names the protocol to conform to.
  ///
  /// Matches FoundationModels' unconstrained `InstructionsBuilder.buildExpression(_:)`, which Apple's
  /// interface lists without saying what it does; we make it the error path (an unavailable
  /// overload ranks below every available one, so it only applies when nothing else does).
  @available(
    *, unavailable, message: "Conform the type to 'InstructionsRepresentable' to use it in a instructions builder."
  )
  public static func buildExpression<T>(_ expression: T) -> Instructions {
    Instructions(segments: [])
  }
}
