import Foundation
import RegexBuilder
import Testing

@testable import FoundationModels

/// The internal schema representation the guided-decoding compiler walks.
@Suite struct SchemaIRTests {
  @Test func objectPropertiesInDeclarationOrder() throws {
    let schema = Book.generationSchema
    guard case .object(let object) = schema.root else {
      Issue.record("expected an object")
      return
    }
    #expect(object.name == "Book")
    #expect(object.properties.map(\.name) == ["title", "year", "genre", "subtitle", "tags"])
    #expect(object.properties.map(\.isOptional) == [false, false, false, true, false])
    #expect(object.properties[1].schema == .integer(NumberSchema(minimum: 1450, maximum: 2100)))
    #expect(object.properties[2].schema == .reference("Genre"))
    #expect(
      schema.definitions["Genre"]
        == .string(StringSchema(name: "Genre", description: "A kind of book", choices: ["fiction", "poetry"])))
    #expect(
      object.properties[4].schema
        == .array(ArraySchema(items: .string(StringSchema(choices: ["a", "b"])), minimumCount: 1, maximumCount: 3)))
  }

  @Test func explicitNilIsKeptInTheIRButNotInJSON() {
    let schema = GenerationSchema(
      type: Book.self, representNilExplicitlyInGeneratedContent: true,
      properties: [.init(name: "note", type: String?.self)])
    guard case .object(let object) = schema.root else {
      Issue.record("expected an object")
      return
    }
    #expect(object.representsNilExplicitly)
    #expect(!schema.jsonString.contains("nil"))
    let dynamic = DynamicGenerationSchema(
      name: "D", representNilExplicitlyInGeneratedContent: true, properties: [])
    guard case .object(let dynamicObject)? = try? GenerationSchema(root: dynamic, dependencies: []).root else {
      Issue.record("expected an object")
      return
    }
    #expect(dynamicObject.representsNilExplicitly)
  }

  @Test func unprintableRegexesAreKeptAsUnsupported() {
    let node = GenerationSchemaNode.string(StringSchema()).applying([.unsupportedPattern("custom")])
    #expect(node == .string(StringSchema(unsupportedPatterns: ["custom"])))
    let schema = GenerationSchema(
      root: .object(ObjectSchema(name: "O", properties: [PropertySchema(name: "p", schema: node, isOptional: false)])))
    #expect(schema.unsupportedPatterns == ["custom"])
    #expect(Book.generationSchema.unsupportedPatterns.isEmpty)
  }

  @Test func boundsNarrow() {
    let node = GenerationSchemaNode.integer(NumberSchema())
      .applying([.minimum(1), .minimum(3), .maximum(9), .maximum(5)])
    #expect(node == .integer(NumberSchema(minimum: 3, maximum: 5)))
  }

  @Test func regexSourceIsRecovered() {
    let guide = GenerationGuide<String>.pattern(/[a-z]+@[a-z]+\.com/)
    #expect(guide.kinds == [.pattern(#"[a-z]+@[a-z]+\.com"#)])
    #expect(GenerationGuide<String>.pattern(source: "x+").kinds == [.pattern("x+")])
  }

  @Test func samplingModeExposesItsParameters() {
    #expect(GenerationOptions.SamplingMode.greedy.kind == .greedy)
    #expect(GenerationOptions.SamplingMode.random(top: 3, seed: 9).kind == .randomTopK(3, seed: 9))
    #expect(
      GenerationOptions.SamplingMode.random(probabilityThreshold: 0.5).kind
        == .randomProbabilityThreshold(0.5, seed: nil))
  }

  @Test func decodedSchemaEqualsTheOriginal() throws {
    // Outline refers to itself, and Expression's cases (in `$defs`) refer back to it: both as `#`.
    let schemas = [
      Book.generationSchema, TreeNode.generationSchema, Shelf.generationSchema, Outline.generationSchema,
      Expression.generationSchema,
    ]
    for schema in schemas {
      let decoded = try JSONDecoder().decode(GenerationSchema.self, from: JSONEncoder().encode(schema))
      #expect(decoded.isEquivalent(to: schema))
    }
  }

  @Test func toolDefinitionJSONForPrompts() {
    let definition = Transcript.ToolDefinition(tool: BookLookup())
    #expect(
      definition.functionJSON
        == #"{"type":"function","function":{"name":"BookLookup","description":"Looks up a book by title.","parameters":"#
        + Query.generationSchema.jsonString + "}}")
  }
}

extension SchemaIRTests {
  @Test func regexBuilderSourceIsRecovered() {
    let regex = Regex {
      OneOrMore(.digit)
      "x"
    }
    #expect(GenerationGuide<String>.pattern(regex).kinds == [.pattern(#"\d+x"#)])
  }
}
