import Foundation
import FoundationModels
import Testing

/// The JSON a provider gets from `JSONEncoder().encode(request.schema)` (and from each
/// `ToolDefinition.parameters`), which it hands to an API's `json_schema`: Apple's dialect.
///
/// The expected texts are the dialect as the specs describe it (an object is `type`, `title`,
/// `description`, `properties`, `required` without the optional properties,
/// `additionalProperties: false` and `x-order` in declaration order; named types go into `$defs`
/// and are referred to with `$ref`, a recursive root with `"#"`; a constant is `const` without
/// `type`), written by hand rather than recorded from our encoder, so they are compared
/// structurally (key order aside) and never rewritten by a test run. Each is also decoded and
/// encoded again, which must give the same JSON.
@Suite struct GenerationSchemaGoldenTests {
  @Test func aStructOfPrimitivesWithGuides() throws {
    try expectGolden(
      Listing.generationSchema,
      #"""
      {
        "type": "object", "title": "Listing", "description": "A listing in a shop",
        "properties": {
          "title": {"type": "string", "description": "What is sold"},
          "stars": {"type": "integer", "description": "The rating", "minimum": 1, "maximum": 5},
          "price": {"type": "number", "minimum": 0.5, "maximum": 1000},
          "condition": {"type": "string", "enum": ["new", "used"]},
          "code": {"type": "string", "pattern": "[0-9]{3}"},
          "kind": {"const": "listing"},
          "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
          "digits": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 9}, "minItems": 1},
          "inStock": {"type": "boolean"},
          "note": {"type": "string"},
          "discount": {"type": "integer", "description": "Percent off", "minimum": 0, "maximum": 90}
        },
        "required": ["title", "stars", "price", "condition", "code", "kind", "tags", "digits", "inStock"],
        "additionalProperties": false,
        "x-order": [
          "title", "stars", "price", "condition", "code", "kind", "tags", "digits", "inStock", "note", "discount"
        ]
      }
      """#)
  }

  @Test func representingNilExplicitlyIsNotPartOfTheJSON() throws {
    try expectGolden(
      Nickname.generationSchema,
      #"""
      {
        "type": "object", "title": "Nickname",
        "properties": {"name": {"type": "string"}, "nickname": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": false,
        "x-order": ["name", "nickname"]
      }
      """#)
  }

  @Test func nestedStructsArraysOptionalsAndAStringEnum() throws {
    try expectGolden(
      Order.generationSchema,
      #"""
      {
        "type": "object", "title": "Order",
        "properties": {
          "customer": {"$ref": "#/$defs/Customer", "description": "Who pays"},
          "lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}, "minItems": 1, "maxItems": 10},
          "size": {"$ref": "#/$defs/Size"},
          "giftFor": {"$ref": "#/$defs/Customer"},
          "notes": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["customer", "lines"],
        "additionalProperties": false,
        "x-order": ["customer", "lines", "size", "giftFor", "notes"],
        "$defs": {
          "Customer": {
            "type": "object", "title": "Customer",
            "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": false,
            "x-order": ["name", "email"]
          },
          "Line": {
            "type": "object", "title": "Line", "description": "One line of an order",
            "properties": {
              "product": {"type": "string"},
              "quantity": {"type": "integer", "minimum": 1},
              "size": {"$ref": "#/$defs/Size"}
            },
            "required": ["product", "quantity", "size"],
            "additionalProperties": false,
            "x-order": ["product", "quantity", "size"]
          },
          "Size": {"type": "string", "title": "Size", "description": "A size", "enum": ["small", "medium", "large"]}
        }
      }
      """#)
  }

  @Test func aRecursiveRootRefersToItselfAsTheWholeSchema() throws {
    try expectGolden(
      Relative.generationSchema,
      #"""
      {
        "type": "object", "title": "Relative",
        "properties": {
          "name": {"type": "string", "description": "Their name"},
          "age": {"type": "integer", "minimum": 0, "maximum": 120},
          "children": {"type": "array", "items": {"$ref": "#"}, "maxItems": 3}
        },
        "required": ["name", "children"],
        "additionalProperties": false,
        "x-order": ["name", "age", "children"]
      }
      """#)
  }

  @Test func aRecursiveTypeInsideAnotherIsADefinition() throws {
    try expectGolden(
      FamilyTree.generationSchema,
      #"""
      {
        "type": "object", "title": "FamilyTree",
        "properties": {"founder": {"$ref": "#/$defs/Relative"}},
        "required": ["founder"],
        "additionalProperties": false,
        "x-order": ["founder"],
        "$defs": {
          "Relative": {
            "type": "object", "title": "Relative",
            "properties": {
              "name": {"type": "string", "description": "Their name"},
              "age": {"type": "integer", "minimum": 0, "maximum": 120},
              "children": {"type": "array", "items": {"$ref": "#/$defs/Relative"}, "maxItems": 3}
            },
            "required": ["name", "children"],
            "additionalProperties": false,
            "x-order": ["name", "age", "children"]
          }
        }
      }
      """#)
  }

  @Test func aDynamicSchemaBuiltAtRunTime() throws {
    let item = DynamicGenerationSchema(
      name: "Item", properties: [.init(name: "name", schema: .init(type: String.self))])
    let menu = DynamicGenerationSchema(
      name: "Menu", description: "Today's menu",
      properties: [
        .init(
          name: "items", schema: .init(arrayOf: .init(referenceTo: "Item"), minimumElements: 1, maximumElements: 5)),
        .init(name: "course", schema: .init(name: "Course", anyOf: ["starter", "main"])),
        .init(
          name: "special", description: "The dish of the day, if any",
          schema: .init(name: "Special", anyOf: [.init(referenceTo: "Item"), .null]), isOptional: true),
        .init(name: "price", schema: .init(type: Int.self, guides: [.range(1...30)])),
        .init(name: "next", schema: .init(referenceTo: "Menu"), isOptional: true),
      ])
    try expectGolden(
      try GenerationSchema(root: menu, dependencies: [item]),
      #"""
      {
        "type": "object", "title": "Menu", "description": "Today's menu",
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}, "minItems": 1, "maxItems": 5},
          "course": {"$ref": "#/$defs/Course"},
          "special": {"$ref": "#/$defs/Special", "description": "The dish of the day, if any"},
          "price": {"type": "integer", "minimum": 1, "maximum": 30},
          "next": {"$ref": "#"}
        },
        "required": ["items", "course", "price"],
        "additionalProperties": false,
        "x-order": ["items", "course", "special", "price", "next"],
        "$defs": {
          "Course": {"type": "string", "title": "Course", "enum": ["starter", "main"]},
          "Item": {
            "type": "object", "title": "Item",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": false,
            "x-order": ["name"]
          },
          "Special": {"title": "Special", "anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}]}
        }
      }
      """#)
  }

  @Test func theSchemaAndToolParametersAProviderReceives() async throws {
    let model = ScriptedProvider([
      Round([.response(action: .appendText(#"{"city":"Oslo","temperature":-3}"#, tokenCount: 9))])
    ])
    let session = LanguageModelSession(model: model, tools: [Weather()])
    _ = try await session.respond(to: "Weather in Oslo?", generating: Forecast.self)
    let request = try #require(model.script.requests.first)
    try expectGolden(
      try #require(request.schema),
      #"""
      {
        "type": "object", "title": "Forecast",
        "properties": {"city": {"type": "string"}, "temperature": {"type": "integer"}},
        "required": ["city", "temperature"],
        "additionalProperties": false,
        "x-order": ["city", "temperature"]
      }
      """#)
    try expectGolden(
      try #require(request.enabledToolDefinitions.first).parameters,
      #"""
      {
        "type": "object", "title": "Arguments",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": false,
        "x-order": ["city"]
      }
      """#)
  }

  @Test func schemasWithoutAnObjectAtTheRoot() throws {
    try expectGolden(Int.generationSchema, #"{"type": "integer"}"#)
    try expectGolden(Double.generationSchema, #"{"type": "number"}"#)
    try expectGolden(Bool.generationSchema, #"{"type": "boolean"}"#)
    try expectGolden(String.generationSchema, #"{"type": "string"}"#)
    try expectGolden(GeneratedContent.generationSchema, "{}")
    try expectGolden(
      [Size].generationSchema,
      #"""
      {
        "type": "array", "items": {"$ref": "#/$defs/Size"},
        "$defs": {
          "Size": {"type": "string", "title": "Size", "description": "A size", "enum": ["small", "medium", "large"]}
        }
      }
      """#)
  }
}

/// Expects `schema` to encode to `expected` (compared as JSON values), and `expected` to decode
/// to a schema that encodes to it again.
private func expectGolden(
  _ schema: GenerationSchema, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let encoded = try canonicalJSON(JSONEncoder().encode(schema))
  let golden = try canonicalJSON(Data(expected.utf8))
  #expect(encoded == golden, sourceLocation: sourceLocation)
  let decoded = try JSONDecoder().decode(GenerationSchema.self, from: Data(expected.utf8))
  #expect(try canonicalJSON(JSONEncoder().encode(decoded)) == golden, "round trip", sourceLocation: sourceLocation)
}

/// The JSON with sorted keys, one item a line: equal for equal JSON values, readable in a diff.
private func canonicalJSON(_ data: Data) throws -> String {
  let value = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
  let text = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted])
  return String(decoding: text, as: UTF8.self)
}

// MARK: - Types, as an app declares them

@Generable(description: "A listing in a shop")
private struct Listing {
  @Guide(description: "What is sold")
  var title: String
  @Guide(description: "The rating", .range(1...5))
  var stars: Int
  @Guide(.minimum(0.5), .maximum(1000))
  var price: Double
  @Guide(.anyOf(["new", "used"]))
  var condition: String
  @Guide(/[0-9]{3}/)
  var code: String
  @Guide(.constant("listing"))
  var kind: String
  @Guide(.count(2))
  var tags: [String]
  @Guide(.minimumCount(1), .element(.range(0...9)))
  var digits: [Int]
  var inStock: Bool
  var note: String?
  @Guide(description: "Percent off", .range(0...90))
  var discount: Int?
}

@Generable(representNilExplicitlyInGeneratedContent: true)
private struct Nickname {
  var name: String
  var nickname: String?
}

@Generable(description: "A size")
private enum Size {
  case small, medium, large
}

@Generable
private struct Customer {
  var name: String
  var email: String?
}

@Generable(description: "One line of an order")
private struct Line {
  var product: String
  @Guide(.minimum(1))
  var quantity: Int
  var size: Size
}

@Generable
private struct Order {
  @Guide(description: "Who pays")
  var customer: Customer
  @Guide(.count(1...10))
  var lines: [Line]
  var size: Size?
  var giftFor: Customer?
  var notes: [String]?
}

@Generable
private struct Relative {
  @Guide(description: "Their name")
  var name: String
  @Guide(.range(0...120))
  var age: Int?
  @Guide(.maximumCount(3))
  var children: [Relative]
}

@Generable
private struct FamilyTree {
  var founder: Relative
}
