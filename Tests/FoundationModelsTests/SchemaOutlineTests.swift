import Testing

@testable import FoundationModels

/// The outline the session puts in the prompt for `includeSchemaInPrompt`.
@Suite struct SchemaOutlineTests {
  @Test func plainJSONSchemaKeepsOrderDescriptionsAndGuides() throws {
    let schema = #"""
      {"type":"object","description":"A trip","properties":{
        "city":{"type":"string","description":"Where to"},
        "nights":{"type":"integer","minimum":1,"maximum":14},
        "start":{"type":"string","format":"date"},
        "budget":{"type":"number","exclusiveMinimum":0},
        "class":{"enum":["economy","business"]},
        "travellers":{"type":"array","minItems":1,"maxItems":4,"items":{"$ref":"#/$defs/Person"}},
        "notes":{"type":["string","null"],"maxLength":200}},
       "required":["city","nights","start","budget","class","travellers"],
       "$defs":{"Person":{"type":"object","properties":{"name":{"type":"string","pattern":"^[A-Z]"},
         "friend":{"$ref":"#/$defs/Person"}},"required":["name"]}}}
      """#
    let outline = try #require(SchemaOutline.text(ofJSONSchema: schema))
    #expect(
      outline == """
        // A trip
        {
          "city": string, // Where to
          "nights": integer (1 to 14),
          "start": string (date),
          "budget": number (above 0),
          "class": "economy" | "business",
          "travellers": Person[] (1 to 4 items),
          "notes"?: string (at most 200 characters) | null
        }
        Person = {
          "name": string (pattern /^[A-Z]/),
          "friend"?: Person
        }
        """)
  }

  /// Apple's dialect lists properties by name and gives their order in `x-order`; named
  /// types are definitions, written after the root with their descriptions.
  @Test func appleSchemasFollowTheirDeclarationOrder() throws {
    #expect(
      TranscriptRenderer.schemaInstruction(Book.generationSchema) == """
        Respond with JSON of this shape:
        // A book
        {
          "title": string, // The title
          "year": integer (1450 to 2100),
          "genre": Genre,
          "subtitle"?: string,
          "tags": ("a" | "b")[] (1 to 3 items)
        }
        Genre = "fiction" | "poetry" // A kind of book
        """)
    #expect(TranscriptRenderer.schemaInstruction(Book.generationSchema).count < Book.generationSchema.jsonString.count)
  }

  @Test func aSchemaThatIsNotAnObjectIsQuotedAsJSON() {
    #expect(SchemaOutline.text(ofJSONSchema: "true") == nil)
    #expect(SchemaOutline.text(ofJSONSchema: "{\"type\":") == nil)
  }
}
