import FoundationModels
import Testing

/// Arguments of ``BookLookup``.
struct Query: Generable {
  var title: String

  static var generationSchema: GenerationSchema {
    GenerationSchema(type: Query.self, properties: [.init(name: "title", type: String.self)])
  }

  init(_ content: GeneratedContent) throws {
    title = try content.value(forProperty: "title")
  }

  var generatedContent: GeneratedContent { GeneratedContent(properties: ["title": title]) }
}

/// A tool that relies on every default.
struct BookLookup: Tool {
  let description = "Looks up a book by title."

  func call(arguments: Query) async throws -> String {
    "Found \(arguments.title)"
  }
}

/// A tool that overrides the defaults and takes runtime-schema arguments.
struct Calculator: Tool {
  let name = "calc"
  let description = "Adds numbers."
  let includesSchemaInInstructions = false
  var parameters: GenerationSchema { GenerationSchema(type: GeneratedContent.self, properties: []) }

  func call(arguments: GeneratedContent) async throws -> [String] {
    [arguments.jsonString]
  }
}

@Suite struct ToolTests {
  @Test func defaults() async throws {
    let tool = BookLookup()
    #expect(tool.name == "BookLookup")
    #expect(tool.includesSchemaInInstructions)
    #expect(tool.parameters.debugDescription == Query.generationSchema.debugDescription)
    let output = try await tool.call(arguments: Query(GeneratedContent(properties: ["title": "Dune"])))
    #expect(output == "Found Dune")
  }

  @Test func overrides() {
    let tool: any Tool = Calculator()
    #expect(tool.name == "calc")
    #expect(!tool.includesSchemaInInstructions)
    let definition = Transcript.ToolDefinition(tool: Calculator())
    #expect(definition.name == "calc")
    #expect(definition.description == "Adds numbers.")
  }

  @Test func toolCallErrorNamesTheTool() {
    struct Broken: Error, CustomStringConvertible { var description: String { "no network" } }
    let error = LanguageModelSession.ToolCallError(tool: BookLookup(), underlyingError: Broken())
    #expect(error.errorDescription == "The tool 'BookLookup' failed: no network")
    #expect(error.tool.name == "BookLookup")
  }
}
