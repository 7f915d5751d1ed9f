import Foundation
import GuidedDecoding

/// A schema given as plain JSON Schema text, kept with its parsed form.
struct PlainJSONSchema: Sendable, Equatable {
  let text: String
  let document: SchemaDocument
}

extension GenerationSchema {
  /// A schema from plain JSON Schema (draft 2020-12 keywords). Our addition, used by
  /// `fm generate --schema` and servers that accept OpenAI-style `response_format` schemas.
  ///
  /// Supported: `type`, `properties`, `required`, `additionalProperties`, `enum`, `const`,
  /// `anyOf`/`oneOf`, `$ref`/`$defs`, `pattern`, `minLength`/`maxLength`,
  /// `minimum`/`maximum` and their exclusive forms, `minItems`/`maxItems`, `items`,
  /// `prefixItems`, and `format` date-time, date, time, uuid and email; annotations such as
  /// `title` and `description` are accepted. Properties are generated in the order the schema
  /// lists them.
  ///
  /// - Throws: `LanguageModelSession.GenerationError.unsupportedGuide` naming any other
  ///   keyword (never silently ignored), or describing malformed JSON.
  public init(jsonSchema text: String) throws {
    let document: SchemaDocument
    do {
      document = try JSONSchemaParser().parse(text)
      _ = try ConstraintAutomaton(document)
    } catch let error as GuidedDecoding.SchemaError {
      throw LanguageModelSession.GenerationError.unsupportedGuide(.init(debugDescription: error.description))
    } catch {
      throw LanguageModelSession.GenerationError.unsupportedGuide(
        .init(debugDescription: "The JSON Schema could not be read: \(error)"))
    }
    self.init(root: .any)
    plainJSONSchema = PlainJSONSchema(text: text, document: document)
  }

  /// The guided-decoding form of this schema.
  var guidedDocument: SchemaDocument {
    get throws { try plainJSONSchema?.document ?? SchemaDocument(self) }
  }
}
