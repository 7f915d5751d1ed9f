import GuidedDecoding
import JSON
import Testing

@testable import FoundationModels

/// A schema is lowered to guided decoding's form once, when it is made, and compiled once: what
/// generation decodes with is that compilation, and an executor keeps the automata it built.
@Suite struct LoweredSchemaTests {
  static let jsonSchema = #"{"type":"object","properties":{"title":{"type":"string","maxLength":20}},"required":["title"]}"#

  @Test func aJSONSchemaIsCompiledWhenItIsMadeAndDecodedWithThatCompilation() throws {
    let schema = try GenerationSchema(jsonSchema: Self.jsonSchema)
    let copy = schema
    let compiled = try schema.lowered.compiledSchema()
    #expect(try copy.lowered.compiledSchema() === compiled, "every copy decodes with the one compilation")
    #expect(try schema.lowered.compiledSchema() === compiled, "compiled once")
  }

  @Test func aParsedJSONSchemaIsLoweredAsTheSameSchemaAsItsText() throws {
    let parsed = try GenerationSchema(
      jsonSchema: try JSONValue(parsing: Self.jsonSchema), generatesUndeclaredProperties: false)
    let fromText = try GenerationSchema(jsonSchema: Self.jsonSchema)
    #expect(parsed.isEquivalent(to: fromText))
    #expect(try parsed.lowered.document.get() == fromText.lowered.document.get())
    #expect(try parsed.jsonString == JSONValue(parsing: Self.jsonSchema).compactText)
  }

  @Test func aGenerableTypesSchemaIsLoweredWhenItIsMadeAndCompiledOnFirstUse() throws {
    let schema = Book.generationSchema
    guard case .success(let document) = schema.lowered.document else {
      Issue.record("not lowered: \(schema.lowered.document)")
      return
    }
    #expect(try schema.lowered.compiledSchema().document == document)
  }

  @Test func aSchemaThatCannotBeEnforcedSaysWhyWhenItIsUsed() {
    let node = GenerationSchemaNode.string(StringSchema()).applying([.unsupportedPattern("custom")])
    let schema = GenerationSchema(
      root: .object(ObjectSchema(name: "O", properties: [PropertySchema(name: "p", schema: node, isOptional: false)])))
    #expect {
      try schema.lowered.compiledSchema()
    } throws: { error in
      guard case LanguageModelError.unsupportedGenerationGuide(let payload) = error else { return false }
      return payload.debugDescription.contains("custom")
    }
  }

  @Test func anExecutorKeepsTheAutomatonOfASchemaForItsNextGeneration() throws {
    let automata = SchemaAutomata()
    let book = try Book.generationSchema.lowered.compiledSchema()
    let other = try GenerationSchema(jsonSchema: Self.jsonSchema).lowered.compiledSchema()
    let first = automata.take(book)
    #expect(automata.take(book) !== first, "one in use is not handed out twice")
    automata.giveBack(first, of: book)
    // The schema made again (a generable type's schema is made on every request) finds it.
    #expect(automata.take(try Book.generationSchema.lowered.compiledSchema()) === first)
    #expect(automata.take(other) !== first)
  }

  @Test func theKeptAutomataAreBounded() throws {
    let automata = SchemaAutomata()
    let schemas = try (0...SchemaAutomata.limit).map { index in
      try GenerationSchema(jsonSchema: #"{"type":"integer","minimum":\#(index)}"#).lowered.compiledSchema()
    }
    let made = schemas.map { automata.take($0) }
    for (automaton, schema) in zip(made, schemas) { automata.giveBack(automaton, of: schema) }
    #expect(automata.take(schemas[0]) !== made[0], "the one given back longest ago went first")
    #expect(automata.take(schemas[SchemaAutomata.limit]) === made[SchemaAutomata.limit])
  }
}
