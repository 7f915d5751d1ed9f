import Foundation
import FoundationModels
import Testing

/// `@Generable` and `@Guide` as an app uses them: the types in `GenerableFixtures.swift`.
@Suite struct GenerableMacroTests {
  let idea = NovelIdea(
    title: "The Tide", year: 1890, genre: .mystery, subtitle: nil, themes: ["sea", "war"],
    author: Author(name: "Ada", countryCode: "GB"))

  @Test func structSchemaKeepsDeclarationOrderDescriptionsAndGuides() throws {
    let json = try encodedObject(NovelIdea.generationSchema)
    #expect(json["title"] as? String == "NovelIdea")
    #expect(json["description"] as? String == "A novel idea")
    #expect(json["x-order"] as? [String] == ["title", "year", "genre", "subtitle", "themes", "author"])
    #expect(json["required"] as? [String] == ["title", "year", "genre", "themes"])
    let properties = try json.object("properties")
    #expect(try properties.object("title")["description"] as? String == "A short title")
    let year = try properties.object("year")
    #expect(year["description"] as? String == "The year it is set in")
    #expect(year["minimum"] as? Int == 1450)
    #expect(year["maximum"] as? Int == 2100)
    #expect(try properties.object("genre")["$ref"] as? String == "#/$defs/Style")
    let themes = try properties.object("themes")
    #expect(themes["minItems"] as? Int == 1)
    #expect(themes["maxItems"] as? Int == 3)
    #expect(try themes.object("items")["enum"] as? [String] == ["love", "war", "sea"])
    #expect(try properties.object("author")["$ref"] as? String == "#/$defs/Author")
  }

  @Test func schemaMatchesTheHandWrittenFixture() throws {
    var macro = try encodedObject(MacroBook.generationSchema)
    var handWritten = try encodedObject(Book.generationSchema)
    #expect(macro["title"] as? String == "MacroBook")
    macro["title"] = nil
    handWritten["title"] = nil
    #expect(macro as NSDictionary == handWritten as NSDictionary)
  }

  @Test func nestedTypesAreDefinitions() throws {
    let definitions = try encodedObject(NovelIdea.generationSchema).object("$defs")
    let style = try definitions.object("Style")
    #expect(style["type"] as? String == "string")
    #expect(style["enum"] as? [String] == ["fantasy", "mystery", "romance"])
    #expect(style["description"] as? String == "A kind of story")
    let author = try definitions.object("Author")
    #expect(author["x-order"] as? [String] == ["name", "countryCode"])
    let countryCode = try author.object("properties").object("countryCode")
    #expect(countryCode["pattern"] as? String == "[A-Z]{2}")
  }

  @Test func memberwiseInitializerSurvives() {
    #expect(idea.author?.name == "Ada")
  }

  @Test func structRoundTripsThroughGeneratedContent() throws {
    let content = idea.generatedContent
    #expect(try NovelIdea(content) == idea)
    let json = try jsonObject(Data(content.jsonString.utf8))
    #expect(json["subtitle"] == nil, "a nil optional is left out by default")
    #expect(json["genre"] as? String == "mystery")
    #expect(try NovelIdea(GeneratedContent(json: content.jsonString)) == idea)
  }

  @Test func generatedContentKeepsDeclarationOrder() throws {
    guard case .structure(_, let keys) = idea.generatedContent.kind else {
      Issue.record("not a structure")
      return
    }
    #expect(keys == ["title", "year", "genre", "themes", "author"])
  }

  @Test func explicitNilIsWrittenAsNull() throws {
    let value = ExplicitNil(name: "A", nickname: nil)
    #expect(value.generatedContent.jsonString == #"{"name":"A","nickname":null}"#)
    #expect(try ExplicitNil(value.generatedContent) == value)
    let json = try encodedObject(ExplicitNil.generationSchema)
    #expect(json["required"] as? [String] == ["name"], "the schema is the same either way")
  }

  @Test func missingRequiredPropertyThrows() {
    #expect(throws: LanguageModelSession.GenerationError.self) {
      try NovelIdea(GeneratedContent(json: #"{"title": "A"}"#))
    }
  }

  @Test func partiallyGeneratedReadsAStringSoFar() throws {
    let partial = try NovelIdea.PartiallyGenerated(GeneratedContent(json: #"{"title": "A story of"#))
    #expect(partial.title == "A story of")
    #expect(partial.year == nil)
    #expect(partial.themes == nil)
    #expect(partial.author == nil)
  }

  @Test(arguments: [
    #"{"#,
    #"{"title": "The"#,
    #"{"title": "The Tide", "year": 18"#,
    #"{"title": "The Tide", "year": 1890, "genre": "myst"#,
    #"{"title": "The Tide", "year": 1890, "genre": "mystery", "themes": ["se"#,
    #"{"title": "The Tide", "year": 1890, "genre": "mystery", "themes": ["sea", "war"], "author": {"na"#,
    #"{"title": "The Tide", "year": 1890, "genre": "mystery", "themes": ["sea", "war"], "author": {"name": "Ad"#,
  ])
  func partiallyGeneratedNeverThrowsForAPrefix(json: String) throws {
    let partial = try NovelIdea.PartiallyGenerated(GeneratedContent(json: json))
    if json.hasSuffix(#""genre": "myst"#) {
      #expect(partial.genre == nil, "an unfinished enum value reads as nil")
    }
    if json.hasSuffix(#""Ad"#) {
      #expect(partial.author?.name == "Ad")
      #expect(partial.author?.countryCode == nil)
      #expect(partial.genre == .mystery)
      #expect(partial.themes == ["sea", "war"])
    }
  }

  @Test func partiallyGeneratedIsIdentifiable() throws {
    let id = GenerationID()
    let partial = try NovelIdea.PartiallyGenerated(
      GeneratedContent(kind: .structure(properties: [:], orderedKeys: []), id: id))
    #expect(partial.id == id)
    let own = try Identified.PartiallyGenerated(GeneratedContent(json: #"{"id": "x7", "score": 0.5}"#))
    #expect(own.id == "x7", "a property named id takes the place of the generation id")
  }

  @Test func asPartiallyGeneratedCopiesEveryProperty() {
    let partial = idea.asPartiallyGenerated()
    #expect(partial.title == "The Tide")
    #expect(partial.year == 1890)
    #expect(partial.genre == .mystery)
    #expect(partial.subtitle == nil)
    #expect(partial.author?.countryCode == "GB")
  }

  @Test func recursiveStructs() throws {
    let json = try encodedObject(Outline.generationSchema)
    let children = try json.object("properties").object("children")
    #expect(try children.object("items")["$ref"] as? String == "#", "the root, recursively")
    #expect(json["$defs"] == nil)
    let outline = Outline(
      heading: "A", children: [Outline(heading: "B", children: [Outline(heading: "C", children: [])])])
    #expect(try Outline(GeneratedContent(json: outline.generatedContent.jsonString)) == outline)
    let partial = try Outline.PartiallyGenerated(
      GeneratedContent(json: #"{"heading": "A", "children": [{"heading": "B", "chil"#))
    #expect(partial.children?.first?.heading == "B")
  }
}
