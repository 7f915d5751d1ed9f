import Foundation
import GuidedDecoding

/// A schema given as plain JSON Schema text, kept with its parsed form.
struct PlainJSONSchema: Sendable, Equatable {
  let text: String
  let document: SchemaDocument
  /// What generation may write where the schema leaves the shape open.
  let constraintOptions: ConstraintOptions
}

extension GenerationSchema {
  /// A schema from plain JSON Schema (draft 2020-12 keywords). Our addition, used by
  /// `fm generate --schema` and servers that accept OpenAI-style `response_format` schemas.
  ///
  /// Every keyword is enforced while generating or refused; see `docs/SCHEMAS.md` for the
  /// supported set. Annotations such as `title` and `description` are accepted. Properties
  /// are generated in the order the schema lists them, and only the members the schema asks
  /// for are written: an object without `additionalProperties` gets its declared properties
  /// (JSON Schema would allow more; a small model asked for "anything" invents members and
  /// nests them until the context is full). Recursive references nest at most 10 levels.
  ///
  /// - Throws: `LanguageModelSession.GenerationError.unsupportedGuide` naming any other
  ///   keyword and its JSON Pointer (never silently ignored), or describing malformed JSON.
  public init(jsonSchema text: String) throws {
    try self.init(jsonSchema: text, generatesUndeclaredProperties: false)
  }

  /// A schema from plain JSON Schema that may also write the members JSON Schema allows by
  /// default. Our addition.
  ///
  /// - Parameter generatesUndeclaredProperties: when true, an object without
  ///   `additionalProperties` may get members it does not declare, as JSON Schema allows
  ///   (`fm generate --open-objects`); when false, as `init(jsonSchema:)`.
  /// - Throws: as `init(jsonSchema:)`.
  public init(jsonSchema text: String, generatesUndeclaredProperties: Bool) throws {
    let document: SchemaDocument
    var options = ConstraintOptions.generation
    options.generatesUndeclaredProperties = generatesUndeclaredProperties
    do {
      document = try JSONSchemaParser().parse(text)
      _ = try ConstraintAutomaton(document, options: options)
    } catch let error as GuidedDecoding.SchemaError {
      throw LanguageModelSession.GenerationError.unsupportedGuide(.init(debugDescription: error.description))
    } catch {
      throw LanguageModelSession.GenerationError.unsupportedGuide(
        .init(debugDescription: "The JSON Schema could not be read: \(error)"))
    }
    self.init(root: .any)
    plainJSONSchema = PlainJSONSchema(text: text, document: document, constraintOptions: options)
  }

  /// The guided-decoding form of this schema.
  var guidedDocument: SchemaDocument {
    get throws { try plainJSONSchema?.document ?? SchemaDocument(self) }
  }

  /// How the guided-decoding form becomes a constraint.
  var constraintOptions: ConstraintOptions {
    plainJSONSchema?.constraintOptions ?? .generation
  }
}
