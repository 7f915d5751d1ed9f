import Foundation
import FoundationModels
import Testing

@Suite struct DynamicGenerationSchemaTests {
  /// The book's menu example: a dish refers to an ingredient list by name.
  @Test func resolvesReferencesToDependencies() throws {
    let ingredient = DynamicGenerationSchema(
      name: "Ingredient", anyOf: ["lamb", "salmon", "duck"])
    let dish = DynamicGenerationSchema(
      name: "Dish", description: "A menu dish",
      properties: [
        .init(name: "name", schema: .init(type: String.self)),
        .init(
          name: "ingredients",
          schema: .init(arrayOf: .init(referenceTo: "Ingredient"), minimumElements: 1, maximumElements: 3)),
        .init(name: "price", schema: .init(type: Int.self, guides: [.range(5...50)]), isOptional: true),
        .init(name: "side", schema: .init(name: "Side", anyOf: [.init(referenceTo: "Ingredient"), .null])),
      ])
    let schema = try GenerationSchema(root: dish, dependencies: [ingredient])
    let json = try encodedObject(schema)
    #expect(json["title"] as? String == "Dish")
    #expect(json["description"] as? String == "A menu dish")
    #expect(json["required"] as? [String] == ["name", "ingredients", "side"])
    #expect(json["x-order"] as? [String] == ["name", "ingredients", "price", "side"])
    let properties = try json.object("properties")
    let ingredients = try properties.object("ingredients")
    #expect(try ingredients.object("items")["$ref"] as? String == "#/$defs/Ingredient")
    #expect(ingredients["minItems"] as? Int == 1)
    #expect(ingredients["maxItems"] as? Int == 3)
    #expect(try properties.object("price")["maximum"] as? Int == 50)
    #expect(try properties.object("side")["$ref"] as? String == "#/$defs/Side")
    let defs = try json.object("$defs")
    #expect(try defs.object("Ingredient")["enum"] as? [String] == ["lamb", "salmon", "duck"])
    let side = try defs.object("Side").array("anyOf")
    #expect((side.last as? [String: Any])?["type"] as? String == "null")
    let roundTrip = try JSONDecoder().decode(GenerationSchema.self, from: JSONEncoder().encode(schema))
    #expect(roundTrip.debugDescription == schema.debugDescription)
  }

  @Test func hoistsInlineNamedSchemasAndAllowsSelfReference() throws {
    let person = DynamicGenerationSchema(
      name: "Person",
      properties: [
        .init(name: "name", schema: .init(type: String.self)),
        .init(name: "friend", schema: .init(referenceTo: "Person"), isOptional: true),
        .init(
          name: "pet", schema: .init(name: "Pet", properties: [.init(name: "kind", schema: .init(type: String.self))])),
      ])
    let json = try encodedObject(try GenerationSchema(root: person, dependencies: []))
    let defs = try json.object("$defs")
    #expect(try defs.object("Pet")["title"] as? String == "Pet")
    #expect(defs["Person"] == nil, "the root is referred to as '#'")
    #expect(try json.object("properties").object("friend")["$ref"] as? String == "#")
    #expect(try json.object("properties").object("pet")["$ref"] as? String == "#/$defs/Pet")
  }

  @Test func generableTypesBringTheirDefinitions() throws {
    let root = DynamicGenerationSchema(
      name: "Library", properties: [.init(name: "books", schema: .init(type: [Book].self))])
    let json = try encodedObject(try GenerationSchema(root: root, dependencies: []))
    let defs = try json.object("$defs")
    #expect(defs["Book"] != nil)
    #expect(defs["Genre"] != nil)
  }

  @Test func reportsUndefinedReferences() {
    let root = DynamicGenerationSchema(
      name: "Root",
      properties: [
        .init(name: "a", schema: .init(referenceTo: "Zeta")),
        .init(name: "b", schema: .init(arrayOf: .init(referenceTo: "Alpha"))),
      ])
    #expect {
      try GenerationSchema(root: root, dependencies: [])
    } throws: { error in
      guard case .undefinedReferences(let schema, let references, _)? = error as? GenerationSchema.SchemaError
      else { return false }
      return schema == "Root" && references == ["Alpha", "Zeta"]
    }
  }

  @Test func reportsDuplicateTypes() {
    let first = DynamicGenerationSchema(name: "Thing", anyOf: ["a"])
    let second = DynamicGenerationSchema(name: "Thing", anyOf: ["b"])
    let root = DynamicGenerationSchema(
      name: "Root", properties: [.init(name: "x", schema: .init(referenceTo: "Thing"))])
    #expect {
      try GenerationSchema(root: root, dependencies: [first, second])
    } throws: { error in
      guard case .duplicateType(_, let type, _)? = error as? GenerationSchema.SchemaError else { return false }
      return type == "Thing"
    }
    // The same schema used twice is not a duplicate.
    #expect(throws: Never.self) {
      try GenerationSchema(root: root, dependencies: [first, first])
    }
    // A dependency may not reuse the root's name.
    #expect(throws: GenerationSchema.SchemaError.self) {
      try GenerationSchema(root: root, dependencies: [DynamicGenerationSchema(name: "Root", anyOf: ["r"])])
    }
  }

  @Test func reportsDuplicateProperties() {
    let root = DynamicGenerationSchema(
      name: "Root",
      properties: [
        .init(name: "x", schema: .init(type: Int.self)), .init(name: "x", schema: .init(type: String.self)),
      ])
    #expect {
      try GenerationSchema(root: root, dependencies: [])
    } throws: { error in
      guard case .duplicateProperty(let schema, let property, _)? = error as? GenerationSchema.SchemaError
      else { return false }
      return schema == "Root" && property == "x"
    }
  }

  @Test func reportsEmptyChoices() {
    for root in [
      DynamicGenerationSchema(name: "Empty", anyOf: [String]()),
      DynamicGenerationSchema(name: "Empty", anyOf: [DynamicGenerationSchema]()),
    ] {
      #expect {
        try GenerationSchema(root: root, dependencies: [])
      } throws: { error in
        guard case .emptyTypeChoices(let schema, _)? = error as? GenerationSchema.SchemaError else { return false }
        return schema == "Empty"
      }
    }
  }

  @Test func schemaErrorsDescribeThemselves() {
    let errors: [GenerationSchema.SchemaError] = [
      .duplicateProperty(schema: "S", property: "p", context: .init(debugDescription: "")),
      .duplicateType(schema: nil, type: "T", context: .init(debugDescription: "")),
      .emptyTypeChoices(schema: "E", context: .init(debugDescription: "")),
      .undefinedReferences(schema: "R", references: ["X"], context: .init(debugDescription: "")),
    ]
    let expected = ["'p'", "'T'", "'E'", "'X'"]
    for (error, name) in zip(errors, expected) {
      #expect(error.errorDescription?.contains(name) == true)
      #expect(error.recoverySuggestion?.isEmpty == false)
    }
  }
}
