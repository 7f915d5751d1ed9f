import GuidedDecoding
import Synchronization

/// A schema in guided decoding's form: lowered once, when its `GenerationSchema` is made, and
/// compiled the first time a generation needs it — the answer's schema or a tool's arguments —
/// so that every generation with the schema decodes with the same compilation.
final class LoweredSchema: Sendable {
  /// The lowered document, or why the schema cannot be enforced.
  let document: Result<SchemaDocument, LanguageModelError>
  private let options: ConstraintOptions
  /// The compilations made so far, by whether they space their separators.
  private let compiled: Mutex<[Bool: Result<CompiledSchema, LanguageModelError>]>

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
    compiled = Mutex([:])
  }

  /// A schema compiled already (one made from JSON Schema, compiled to check it).
  init(compiled schema: CompiledSchema) {
    document = .success(schema.document)
    options = schema.options
    compiled = Mutex([schema.options.spacesSeparators: .success(schema)])
  }

  /// The compiled schema, compiled the first time.
  /// - Parameter spacesSeparators: whether the JSON has a space after each `:` and `,`
  ///   (`ConstraintOptions.spacesSeparators`), as a chat template renders a call's arguments.
  /// - Throws: `LanguageModelError.unsupportedGenerationGuide` when the schema cannot be enforced.
  func compiledSchema(spacesSeparators: Bool = false) throws -> CompiledSchema {
    try compiled.withLock { compiled in
      if let known = compiled[spacesSeparators] { return known }
      var options = options
      options.spacesSeparators = spacesSeparators
      let made = document.flatMap { document in
        do {
          return .success(try CompiledSchema(document, options: options))
        } catch {
          return .failure(
            LanguageModelError.unsupportedGenerationGuide(
              .init(schemaName: nil, debugDescription: "\(error)")))
        }
      }
      compiled[spacesSeparators] = made
      return made
    }.get()
  }
}
