import Foundation

extension GenerationSchema {
  /// An error in a dynamic schema, found by `GenerationSchema(root:dependencies:)`.
  ///
  /// Matches FoundationModels `GenerationSchema.SchemaError`.
  @nonexhaustive
  public enum SchemaError: Error, LocalizedError {
    /// A structure has two properties with the same name.
    case duplicateProperty(schema: String, property: String, context: Context)
    /// Two different schemas have the same name.
    case duplicateType(schema: String?, type: String, context: Context)
    /// An `anyOf` schema has no choices.
    case emptyTypeChoices(schema: String, context: Context)
    /// References name schemas that are not defined.
    case undefinedReferences(schema: String?, references: [String], context: Context)

    /// Details of a schema error.
    ///
    /// Matches FoundationModels `GenerationSchema.SchemaError.Context`.
    public struct Context: Sendable {
      /// A description of the error for developers.
      public let debugDescription: String

      /// Creates a context.
      ///
      /// Matches FoundationModels `SchemaError.Context.init(debugDescription:)`.
      public init(debugDescription: String) {
        self.debugDescription = debugDescription
      }
    }

    /// What is wrong, naming the schema and the offending names.
    ///
    /// Matches FoundationModels `SchemaError.errorDescription`.
    public var errorDescription: String? {
      switch self {
      case .duplicateProperty(let schema, let property, _):
        return "The schema '\(schema)' has more than one property named '\(property)'."
      case .duplicateType(let schema, let type, _):
        let place = schema.map { " (in '\($0)')" } ?? ""
        return "More than one schema is named '\(type)'\(place)."
      case .emptyTypeChoices(let schema, _):
        return "The schema '\(schema)' has an empty list of choices."
      case .undefinedReferences(let schema, let references, _):
        let place = schema.map { "The schema '\($0)' refers" } ?? "References point"
        let names = references.map { "'\($0)'" }.joined(separator: ", ")
        return "\(place) to undefined schemas: \(names)."
      }
    }

    /// How to fix it.
    ///
    /// Matches FoundationModels `SchemaError.recoverySuggestion`.
    public var recoverySuggestion: String? {
      switch self {
      case .duplicateProperty:
        return "Give every property of a schema a unique name."
      case .duplicateType:
        return "Give every named schema a unique name, or reuse one schema with referenceTo:."
      case .emptyTypeChoices:
        return "Give anyOf at least one choice."
      case .undefinedReferences:
        return "Pass every referenced schema in dependencies, with the name used in referenceTo:."
      }
    }
  }
}
