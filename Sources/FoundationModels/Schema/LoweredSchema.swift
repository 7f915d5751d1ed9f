import GuidedDecoding
import Synchronization

/// A schema in guided decoding's form: lowered once, when its `GenerationSchema` is made, and
/// compiled the first time a generation needs it — the answer's schema or a tool's arguments —
/// so that every generation with the schema decodes with the same compilation.
final class LoweredSchema: Sendable {
  /// The lowered document, or why the schema cannot be enforced.
  let document: Result<SchemaDocument, LanguageModelError>
  private let options: ConstraintOptions
  private let compiled: Mutex<Result<CompiledSchema, LanguageModelError>?>

  /// Lowers a schema in Apple's dialect.
  init(root: GenerationSchemaNode, definitions: SchemaDefinitions) {
    do {
      document = .success(try SchemaDocument(root: root, definitions: definitions))
    } catch let error as LanguageModelError {
      document = .failure(error)
    } catch {
      document = .failure(.unsupportedGenerationGuide(.init(schemaName: nil, debugDescription: "\(error)")))
    }
    options = .generation
    compiled = Mutex(nil)
  }

  /// A schema compiled already (one made from JSON Schema, compiled to check it).
  init(compiled schema: CompiledSchema) {
    document = .success(schema.document)
    options = schema.options
    compiled = Mutex(.success(schema))
  }

  /// The compiled schema, compiled the first time.
  /// - Throws: `LanguageModelError.unsupportedGenerationGuide` when the schema cannot be enforced.
  func compiledSchema() throws -> CompiledSchema {
    try compiled.withLock { compiled in
      if let compiled { return compiled }
      let made = document.flatMap { document in
        do {
          return .success(try CompiledSchema(document, options: options))
        } catch {
          return .failure(LanguageModelError.unsupportedGenerationGuide(
            .init(schemaName: nil, debugDescription: "\(error)")))
        }
      }
      compiled = made
      return made
    }.get()
  }
}
