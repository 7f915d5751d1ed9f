/// A `@Generable(name:)` type: its schema goes by `_generationSchemaName` rather than by the
/// Swift type's name.
///
/// Written by the macro, not by hand; public only because the expansion lives in the user's
/// module. Apple's framework keeps the equivalent out of its interface.
public protocol _GenerableSchemaName {
  /// The name the type has in schemas (the title, the `$defs` key, `ResponseFormat.name`).
  static var _generationSchemaName: String { get }
}
