import Foundation
import FoundationModels
import GuidedDecoding
import JSON

/// Checks a server's structured output against the requested schema: a server that ignores
/// `response_format` must not have prose or a wrong shape passed off as structured output.
enum SchemaCheck {
  /// - Throws: `LanguageModelError.unsupportedGenerationGuide` when `text` is not JSON of `schema`.
  static func validate(_ text: String, against schema: GenerationSchema) throws {
    let document = try JSONSchemaParser(options: .init(acceptsUnknownKeywords: true))
      .parse(try JSONEncoder().encode(schema))
    let problem: String
    do {
      let value = try JSONValue(parsing: text)
      if try SchemaValidator(definitions: document.definitions).validate(value, against: document.root) { return }
      problem = "it does not follow the schema"
    } catch {
      problem = "it is not JSON (\(error))"
    }
    throw LanguageModelError.unsupportedGenerationGuide(
      .init(
        schemaName: schema.name,
        debugDescription: "The server did not enforce the schema: \(problem). Output: \(text.prefix(300))"))
  }
}
