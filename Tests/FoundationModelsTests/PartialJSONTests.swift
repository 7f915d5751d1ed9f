import FoundationModels
import Testing

@Suite struct PartialJSONTests {
  /// Partial input, the JSON of what it reads as, and whether that is complete.
  @Test(arguments: [
    (#"{"title": "A story of"#, #"{"title":"A story of"}"#, false),
    (#"{"a": 1, "b"#, #"{"a":1}"#, false),
    (#"{"a": 1, "b":"#, #"{"a":1}"#, false),
    (#"{"a": 1, "b": "#, #"{"a":1}"#, false),
    (#"{"a": tru"#, #"{}"#, false),
    (#"{"a": nul"#, #"{}"#, false),
    (#"{"a": fals"#, #"{}"#, false),
    (#"{"a": -"#, #"{}"#, false),
    (#"{"a": 12"#, #"{"a":12}"#, false),
    (#"{"a": 1.5e"#, #"{"a":1.5}"#, false),
    (#"{"a": 1."#, #"{"a":1}"#, false),
    (#"{"a": [1, 2"#, #"{"a":[1,2]}"#, false),
    (#"{"a": [1, 2,"#, #"{"a":[1,2]}"#, false),
    (#"{"a": {"b": {"#, #"{"a":{"b":{}}}"#, false),
    (#"{"a": 1,"#, #"{"a":1}"#, false),
    (#"{"#, #"{}"#, false),
    (#"["#, #"[]"#, false),
    (#"[tr"#, #"[]"#, false),
    (#""abc"#, #""abc""#, false),
    (#""a\"#, #""a""#, false),
    (#""a\u00"#, #""a""#, false),
    (#""a\u00e9"#, #""aé""#, false),
    (#""\ud83d"#, #""""#, false),
    (#""\ud83d\ude00""#, #""😀""#, true),
    (#"{"a": 1}"#, #"{"a":1}"#, true),
    (#"{"b": true, "a": null}"#, #"{"b":true,"a":null}"#, true),
    (#"  [1, "x", false, null, {"k": []}]  "#, #"[1,"x",false,null,{"k":[]}]"#, true),
    ("12", "12", true),
    ("-0.25", "-0.25", true),
    (#""line\nbreak \"q\" \\ \/""#, #""line\nbreak \"q\" \\ /""#, true),
  ])
  func parsesPrefixes(input: String, json: String, complete: Bool) throws {
    let content = try GeneratedContent(json: input)
    #expect(content.jsonString == json)
    #expect(content.isComplete == complete)
  }

  @Test(arguments: [
    "", "   ", "}", "[1 2]", #"{"a" 1}"#, #"{"a": 1]"#, "tx", "nul1", #"{1: 2}"#, "01", "1 2", #""\x""#, "-a",
  ])
  func rejectsInvalidJSON(input: String) {
    #expect(throws: LanguageModelSession.GenerationError.self) {
      try GeneratedContent(json: input)
    }
  }

  @Test func marksOnlyTheUnfinishedPartsIncomplete() throws {
    let content = try GeneratedContent(json: #"{"done": "yes", "list": [1, 2], "open": "ha"#)
    let done = try #require(content.properties["done"])
    let list = try #require(content.properties["list"])
    let open = try #require(content.properties["open"])
    #expect(done.isComplete)
    #expect(list.isComplete)
    #expect(!open.isComplete)
    #expect(!content.isComplete)
  }

  @Test func keepsKeyOrderAndLastDuplicate() throws {
    let content = try GeneratedContent(json: #"{"z": 1, "a": 2, "z": 3}"#)
    guard case .structure(_, let keys) = content.kind else {
      Issue.record("expected a structure")
      return
    }
    #expect(keys == ["z", "a"])
    #expect(content.jsonString == #"{"z":3,"a":2}"#)
  }

  @Test func rejectsDeepNesting() {
    let deep = String(repeating: "[", count: 600)
    #expect(throws: LanguageModelSession.GenerationError.self) { try GeneratedContent(json: deep) }
  }

  @Test func partialContentDecodesIntoPartiallyGeneratedTypes() throws {
    let steps = [
      #"{"#,
      #"{"title": "Du"#,
      #"{"title": "Dune", "year": 19"#,
      #"{"title": "Dune", "year": 1965, "genre": "fic"#,
      #"{"title": "Dune", "year": 1965, "genre": "fiction", "tags": ["a""#,
    ]
    let snapshots = try steps.map { try Book.PartiallyGenerated(GeneratedContent(json: $0)) }
    #expect(snapshots[0].title == nil)
    #expect(snapshots[1].title == "Du")
    #expect(snapshots[2].year == 19)
    #expect(snapshots[3].genre == nil)  // "fic" is not a case yet: nil, not an error
    #expect(snapshots[4].genre == .fiction)
    #expect(snapshots[4].tags == ["a"])
  }

  @Test func unfinishedArrayElementsThatCannotBeReadYetAreLeftOut() throws {
    let partial = try GeneratedContent(json: #"["fiction", "poe"#)
    #expect(try [Genre](partial) == [.fiction])
    let complete = try GeneratedContent(json: #"["fiction", "poe"]"#)
    #expect(throws: LanguageModelSession.GenerationError.self) { try [Genre](complete) }
  }

  @Test func completeInvalidEnumValueStillThrows() throws {
    let content = try GeneratedContent(json: #"{"genre": "fic"}"#)
    #expect(throws: LanguageModelSession.GenerationError.self) {
      _ = try content.value(Genre?.self, forProperty: "genre")
    }
  }

  @Test func appleDocumentationSample() throws {
    let partial = #"{"title": "A story of"#
    let content = try GeneratedContent(json: partial)
    let title: String? = try content.value(forProperty: "title")
    #expect(title == "A story of")
  }
}

extension GeneratedContent {
  /// The properties of a structure, for tests.
  var properties: [String: GeneratedContent] {
    guard case .structure(let properties, _) = kind else { return [:] }
    return properties
  }
}
