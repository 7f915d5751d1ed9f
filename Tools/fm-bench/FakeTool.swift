import FoundationModels
import GuidedDecoding
import JSON

/// A tool of the tool-use set for our side of P12: its schema from the set's JSON Schema, and
/// the set's canned output as its answer.
///
/// The reference runs the same `ToolSpec.output(for:)`.
struct FakeTool: Tool {
  let spec: ToolSpec
  let parameters: GenerationSchema

  var name: String { spec.name }
  var description: String { spec.description }

  /// - Throws: `LanguageModelSession.GenerationError.unsupportedGuide` when the schema has a
  ///   keyword guided generation does not take.
  init(_ spec: ToolSpec) throws {
    self.spec = spec
    parameters = try GenerationSchema(jsonSchema: spec.parametersText)
  }

  func call(arguments: GeneratedContent) async throws -> String {
    spec.output(for: try? JSONValue(parsing: arguments.jsonString))
  }
}
