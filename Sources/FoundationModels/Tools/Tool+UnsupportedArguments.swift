import Foundation

/// Primitive argument types are not supported: the model needs a structure with named,
/// described properties to call a tool well.
///
/// These unavailable defaults turn such a tool into a compile-time error that says what to do
/// instead.
///
/// Matches FoundationModels' unavailable `Tool.parameters` for primitive `Arguments`.
extension Tool where Arguments == String {
  /// Unavailable: use a `@Generable` structure for the arguments.
  @available(
    *, unavailable,
    message: "'Tool' that uses 'String' as 'Arguments' type is unsupported. Use '@Generable' struct instead."
  )
  public var parameters: GenerationSchema {
    Arguments.generationSchema
  }
}

extension Tool where Arguments == Int {
  /// Unavailable: use a `@Generable` structure for the arguments.
  @available(
    *, unavailable,
    message: "'Tool' that uses 'Int' as 'Arguments' type is unsupported. Use '@Generable' struct instead."
  )
  public var parameters: GenerationSchema {
    Arguments.generationSchema
  }
}

extension Tool where Arguments == Double {
  /// Unavailable: use a `@Generable` structure for the arguments.
  @available(
    *, unavailable,
    message: "'Tool' that uses 'Double' as 'Arguments' type is unsupported. Use '@Generable' struct instead."
  )
  public var parameters: GenerationSchema {
    Arguments.generationSchema
  }
}

extension Tool where Arguments == Float {
  /// Unavailable: use a `@Generable` structure for the arguments.
  @available(
    *, unavailable,
    message: "'Tool' that uses 'Float' as 'Arguments' type is unsupported. Use '@Generable' struct instead."
  )
  public var parameters: GenerationSchema {
    Arguments.generationSchema
  }
}

extension Tool where Arguments == Decimal {
  /// Unavailable: use a `@Generable` structure for the arguments.
  @available(
    *, unavailable,
    message: "'Tool' that uses 'Decimal' as 'Arguments' type is unsupported. Use '@Generable' struct instead."
  )
  public var parameters: GenerationSchema {
    Arguments.generationSchema
  }
}

extension Tool where Arguments == Bool {
  /// Unavailable: use a `@Generable` structure for the arguments.
  @available(
    *, unavailable,
    message: "'Tool' that uses 'Bool' as 'Arguments' type is unsupported. Use '@Generable' struct instead."
  )
  public var parameters: GenerationSchema {
    Arguments.generationSchema
  }
}
