import Foundation
import FoundationModels
import Testing

@Suite struct GenerationSchemaTests {
  @Test func encodesAnObjectInAppleForm() throws {
    let json = try encodedObject(Book.generationSchema)
    #expect(json["type"] as? String == "object")
    #expect(json["title"] as? String == "Book")
    #expect(json["description"] as? String == "A book")
    #expect(json["additionalProperties"] as? Bool == false)
    #expect(json["x-order"] as? [String] == ["title", "year", "genre", "subtitle", "tags"])
    #expect(json["required"] as? [String] == ["title", "year", "genre", "tags"])
    let properties = try json.object("properties")
    let title = try properties.object("title")
    #expect(title["type"] as? String == "string")
    #expect(title["description"] as? String == "The title")
    let year = try properties.object("year")
    #expect(year["type"] as? String == "integer")
    #expect(year["minimum"] as? Int == 1450)
    #expect(year["maximum"] as? Int == 2100)
    #expect(try properties.object("genre")["$ref"] as? String == "#/$defs/Genre")
    let tags = try properties.object("tags")
    #expect(tags["type"] as? String == "array")
    #expect(tags["minItems"] as? Int == 1)
    #expect(tags["maxItems"] as? Int == 3)
    #expect(try tags.object("items")["enum"] as? [String] == ["a", "b"])
    let genre = try json.object("$defs").object("Genre")
    #expect(genre["type"] as? String == "string")
    #expect(genre["enum"] as? [String] == ["fiction", "poetry"])
    #expect(genre["description"] as? String == "A kind of book")
  }

  @Test func debugDescriptionIsCompactJSONInDeclarationOrder() {
    let text = Book.generationSchema.debugDescription
    #expect(text.hasPrefix(#"{"type":"object","title":"Book""#))
    #expect(text.contains(#""x-order":["title","year","genre","subtitle","tags"]"#))
    #expect(!text.contains("\n"))
  }

  @Test func roundTripsThroughJSON() throws {
    for schema in [Book.generationSchema, TreeNode.generationSchema, Shelf.generationSchema] {
      let data = try JSONEncoder().encode(schema)
      let decoded = try JSONDecoder().decode(GenerationSchema.self, from: data)
      let again = try JSONEncoder().encode(decoded)
      #expect(try jsonObject(again) as NSDictionary == jsonObject(data) as NSDictionary)
      #expect(decoded.debugDescription == schema.debugDescription)
    }
  }

  @Test func recursiveTypesUseReferences() throws {
    let json = try encodedObject(TreeNode.generationSchema)
    let children = try json.object("properties").object("children")
    // As Apple's encoder writes a recursive type: the root is `#`, not repeated in `$defs`.
    #expect(try children.object("items")["$ref"] as? String == "#")
    #expect(json["$defs"] == nil)
  }

  @Test func unionsOfTypes() throws {
    let json = try encodedObject(Shelf.generationSchema)
    #expect(json["title"] as? String == "Shelf")
    let choices = try json.array("anyOf").compactMap { ($0 as? [String: Any])?["$ref"] as? String }
    #expect(choices == ["#/$defs/Book", "#/$defs/Genre"])
    #expect(try json.object("$defs").count == 2)
  }

  @Test func builtInSchemas() throws {
    #expect(try encodedObject(Int.generationSchema)["type"] as? String == "integer")
    #expect(try encodedObject(Double.generationSchema)["type"] as? String == "number")
    #expect(try encodedObject(Bool.generationSchema)["type"] as? String == "boolean")
    #expect(try encodedObject(String.generationSchema)["type"] as? String == "string")
    let array = try encodedObject([Genre].generationSchema)
    #expect(try array.object("items")["$ref"] as? String == "#/$defs/Genre")
    #expect(GeneratedContent.generationSchema.debugDescription == "{}")
  }

  @Test func guidesAppearInTheSchema() throws {
    let schema = GenerationSchema(
      type: GeneratedContent.self,
      properties: [
        .init(name: "fixed", type: String.self, guides: [.constant("x")]),
        .init(name: "code", type: String.self, guides: [/[A-Z]{3}-\d+/]),
        .init(name: "maybe", type: String?.self, guides: [/a|b/]),
        .init(name: "ratio", type: Double.self, guides: [.minimum(0.5), .maximum(2)]),
        .init(name: "price", type: Decimal.self, guides: [.range(1...9)]),
        .init(name: "weight", type: Float?.self, guides: [.maximum(3)]),
        .init(name: "few", type: [Int].self, guides: [.minimumCount(1), .maximumCount(4), .element(.minimum(0))]),
        .init(name: "three", type: [Bool].self, guides: [.count(3)]),
      ])
    let properties = try encodedObject(schema).object("properties")
    #expect(try properties.object("fixed")["const"] as? String == "x")
    #expect(try properties.object("fixed")["type"] == nil)
    // `_literalPattern` prints a canonical form: `-` comes back escaped.
    #expect(try properties.object("code")["pattern"] as? String == #"[A-Z]{3}\-\d+"#)
    #expect(try properties.object("maybe")["pattern"] as? String == "a|b")
    #expect(try properties.object("ratio")["minimum"] as? Double == 0.5)
    #expect(try properties.object("ratio")["maximum"] as? Double == 2)
    #expect(try properties.object("price")["minimum"] as? Double == 1)
    #expect(try properties.object("weight")["maximum"] as? Double == 3)
    let few = try properties.object("few")
    #expect(few["minItems"] as? Int == 1)
    #expect(few["maxItems"] as? Int == 4)
    #expect(try few.object("items")["minimum"] as? Int == 0)
    #expect(try properties.object("three")["minItems"] as? Int == 3)
    #expect(try properties.object("three")["maxItems"] as? Int == 3)
  }

  @Test func patternFromRegexBuiltAtRunTime() throws {
    let regex = try Regex(#"\d{2}:\d{2}"#)
    let schema = GenerationSchema(
      type: GeneratedContent.self, properties: [.init(name: "time", type: String.self, guides: [regex])])
    let time = try encodedObject(schema).object("properties").object("time")
    #expect(time["pattern"] as? String == #"\d{2}:\d{2}"#)
  }

  @Test func nonGenericArrayGuidesTypeCheckForMacros() {
    let guides: [GenerationGuide<[Never]>] = [.count(2), .count(1...2), .minimumCount(1), .maximumCount(2)]
    #expect(guides.count == 4)
  }

  @Test(arguments: [
    #"{"type":"object","properties":{},"required":[],"additionalProperties":false,"x-order":[]}"#,
    #"{"type":"object","title":"T","properties":{},"required":[],"additionalProperties":false}"#,
    #"{"type":["string","null"]}"#,
    #"{"type":"date"}"#,
    #"{"allOf":[{"type":"string"}]}"#,
    #"{"$ref":"http://example.com/x"}"#,
    ##"{"type":"array","items":{"$ref":"#"}}"##,
    #"{"type":"object","title":"T","properties":{},"required":[],"additionalProperties":false,"x-order":["a"]}"#,
  ])
  func rejectsSchemasOutsideTheDialect(json: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
    }
  }

  @Test func decodingDropsUnsupportedStringKeywords() throws {
    let json = #"{"type":"string","minLength":2,"maxLength":4,"format":"email"}"#
    let schema = try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
    #expect(schema.debugDescription == #"{"type":"string"}"#)
  }
}
