import Foundation
import GuidedDecoding
import JSON

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
    try self.init(jsonSchema: text, generatesUndeclaredProperties: generatesUndeclaredProperties) {
      try JSONSchemaParser().parse(text)
    }
  }

  /// A schema from plain JSON Schema already parsed as JSON (a server request's
  /// `response_format`), as `init(jsonSchema:generatesUndeclaredProperties:)`: the value is
  /// lowered as it is, and its compact text is the schema's JSON form.
  package init(jsonSchema value: JSONValue, generatesUndeclaredProperties: Bool) throws {
    try self.init(jsonSchema: value.compactText, generatesUndeclaredProperties: generatesUndeclaredProperties) {
      try JSONSchemaParser().parse(value)
    }
  }

  /// Lowers and compiles the schema `parse` reads (so an unsupported keyword is reported here,
  /// and generation decodes with this compilation).
  private init(jsonSchema text: String, generatesUndeclaredProperties: Bool, parse: () throws -> SchemaDocument)
    throws
  {
    var options = ConstraintOptions.generation
    options.generatesUndeclaredProperties = generatesUndeclaredProperties
    let compiled: CompiledSchema
    do {
      compiled = try CompiledSchema(try parse(), options: options)
    } catch let error as GuidedDecoding.SchemaError {
      throw LanguageModelSession.GenerationError.unsupportedGuide(.init(debugDescription: error.description))
    } catch {
      throw LanguageModelSession.GenerationError.unsupportedGuide(
        .init(debugDescription: "The JSON Schema could not be read: \(error)"))
    }
    self.init(jsonSchemaText: text, compiled: compiled)
  }
}
