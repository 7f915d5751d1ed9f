import Foundation
import FoundationModels
import Testing

/// `@Generable` enums: string enumerations and discriminated unions.
@Suite struct GenerableEnumTests {
  @Test func stringEnumSchema() throws {
    let json = try encodedObject(Style.generationSchema)
    #expect(json["type"] as? String == "string")
    #expect(json["title"] as? String == "Style")
    #expect(json["enum"] as? [String] == ["fantasy", "mystery", "romance"])
    #expect(json["description"] as? String == "A kind of story")
  }

  @Test(arguments: [Style.fantasy, .mystery, .romance])
  func stringEnumRoundTrips(style: Style) throws {
    #expect(style.generatedContent == GeneratedContent(kind: .string("\(style)")))
    #expect(try Style(style.generatedContent) == style)
  }

  @Test(arguments: [#""horror""#, #""myst"#, "3", #"{"type": "fantasy"}"#])
  func stringEnumRejectsOtherAndUnfinishedValues(json: String) {
    #expect(throws: LanguageModelSession.GenerationError.self) {
      try Style(GeneratedContent(json: json))
    }
  }

  @Test func unionSchemaIsAnAnyOfOfObjectsWithAConstantDiscriminator() throws {
    let json = try encodedObject(Expression.generationSchema)
    #expect(json["title"] as? String == "Expression")
    #expect(json["description"] as? String == "An arithmetic expression")
    let choices = try json.array("anyOf").compactMap { ($0 as? [String: Any])?["$ref"] as? String }
    let names = ["number", "sum", "negated", "variable", "zero"].map { "Expression_\($0)" }
    #expect(choices == names.map { "#/$defs/\($0)" })
    let definitions = try json.object("$defs")
    let sum = try definitions.object("Expression_sum")
    #expect(sum["x-order"] as? [String] == ["type", "_0", "_1"])
    #expect(try sum.object("properties").object("type")["const"] as? String == "sum")
    #expect(try sum.object("properties").object("_0")["$ref"] as? String == "#", "the root, recursively")
    let variable = try definitions.object("Expression_variable")
    #expect(variable["x-order"] as? [String] == ["type", "name", "subscript"])
    #expect(variable["required"] as? [String] == ["type", "name"])
    #expect(try definitions.object("Expression_zero")["x-order"] as? [String] == ["type"])
  }

  @Test(arguments: [
    (Expression.number(value: 2.5), #"{"type":"number","value":2.5}"#),
    (
      .sum(.number(value: 1), .negated(.zero)),
      #"{"type":"sum","_0":{"type":"number","value":1},"_1":{"type":"negated","_0":{"type":"zero"}}}"#
    ),
    (.variable(name: "x", subscript: nil), #"{"type":"variable","name":"x"}"#),
    (.variable(name: "x", subscript: 2), #"{"type":"variable","name":"x","subscript":2}"#),
    (.zero, #"{"type":"zero"}"#),
  ])
  func unionWireShape(expression: Expression, json: String) throws {
    #expect(expression.generatedContent.jsonString == json)
    #expect(try Expression(GeneratedContent(json: json)) == expression)
  }

  @Test(arguments: [
    #"{"type": "product"}"#, #"{"type": "number"}"#, #"{"value": 1}"#, #"{"type": "number", "value": 1"#,
  ])
  func unionRejectsUnknownIncompleteOrMalformedContent(json: String) {
    #expect(throws: LanguageModelSession.GenerationError.self) {
      try Expression(GeneratedContent(json: json))
    }
  }

  @Test func schemasRoundTripThroughJSON() throws {
    for schema in [NovelIdea.generationSchema, Expression.generationSchema, Outline.generationSchema] {
      let data = try JSONEncoder().encode(schema)
      let decoded = try JSONDecoder().decode(GenerationSchema.self, from: data)
      #expect(decoded.debugDescription == schema.debugDescription)
    }
  }
}

/// Unions and generic types inside other `@Generable` types.
@Suite struct GenerableCompositionTests {
  @Test func unionPropertyIsADefinitionWithItsCases() throws {
    let json = try encodedObject(Worksheet.generationSchema)
    let properties = try json.object("properties")
    #expect(try properties.object("answer")["$ref"] as? String == "#/$defs/Expression")
    #expect(try properties.object("steps").object("items")["$ref"] as? String == "#/$defs/Expression")
    let definitions = try json.object("$defs")
    #expect(definitions["Expression"] != nil)
    #expect(definitions["Expression_sum"] != nil)
  }

  @Test func unfinishedUnionReadsAsNilInPartialContent() throws {
    let json = #"{"title": "T", "answer": {"type": "sum", "_0": {"type": "number", "value": 1}"#
    let partial = try Worksheet.PartiallyGenerated(GeneratedContent(json: json))
    #expect(partial.title == "T")
    #expect(partial.answer == nil)
    let finished = try Worksheet.PartiallyGenerated(
      GeneratedContent(json: json + #", "_1": {"type": "zero"}}, "steps": [{"type": "ze"#))
    #expect(finished.answer == .sum(.number(value: 1), .zero))
    #expect(finished.steps == [], "an unfinished last element is left out")
  }

  @Test func genericStruct() throws {
    let box = Box(items: [1, 2], label: nil)
    #expect(try Box<Int>(box.generatedContent) == box)
    let json = try encodedObject(Box<Int>.generationSchema)
    #expect(try json.object("properties").object("items").object("items")["type"] as? String == "integer")
    let partial = try Box<Style>.PartiallyGenerated(GeneratedContent(json: #"{"items": ["fantasy", "myst"#))
    #expect(partial.items == [.fantasy])
  }
}
