import Foundation
import FoundationModels
import Testing

@Suite struct GeneratedContentTests {
  @Test func propertiesKeepTheirOrder() {
    let content = GeneratedContent(properties: ["b": 1, "a": "x", "c": true])
    #expect(content.jsonString == #"{"b":1,"a":"x","c":true}"#)
    guard case .structure(let properties, let keys) = content.kind else {
      Issue.record("expected a structure")
      return
    }
    #expect(keys == ["b", "a", "c"])
    #expect(properties["a"] == GeneratedContent("x"))
  }

  @Test func uniquingKeysCombinesDuplicates() throws {
    let pairs: [(String, any ConvertibleToGeneratedContent)] = [("n", 1), ("m", 5), ("n", 2)]
    let content = try GeneratedContent(properties: pairs) { old, new in
      try old.value(Int.self) + new.value(Int.self)
    }
    #expect(content.jsonString == #"{"n":3,"m":5}"#)
  }

  @Test func elementsAndKinds() throws {
    let elements: [any ConvertibleToGeneratedContent] = [1, "two", 3.5, false]
    let content = GeneratedContent(elements: elements)
    #expect(content.jsonString == #"[1,"two",3.5,false]"#)
    #expect(GeneratedContent(kind: .null).jsonString == "null")
    #expect(GeneratedContent(kind: .number(1e21)).jsonString == "1e+21")
    #expect(GeneratedContent(kind: .number(.nan)).jsonString == "null")
    #expect(GeneratedContent("tab\t\u{1}").jsonString == #""tab\t\u0001""#)
    #expect(content.debugDescription == content.jsonString)
  }

  @Test func valuesOfEveryBuiltInType() throws {
    let content = try GeneratedContent(
      json: #"{"b": true, "i": 42, "d": 2.5, "s": "x", "a": [1, 2], "n": null}"#)
    #expect(try content.value(Bool.self, forProperty: "b"))
    #expect(try content.value(Int.self, forProperty: "i") == 42)
    #expect(try content.value(Double.self, forProperty: "d") == 2.5)
    #expect(try content.value(Float.self, forProperty: "d") == 2.5)
    #expect(try content.value(Decimal.self, forProperty: "d") == Decimal(string: "2.5"))
    #expect(try content.value(String.self, forProperty: "s") == "x")
    #expect(try content.value([Int].self, forProperty: "a") == [1, 2])
    #expect(try content.value(Int?.self, forProperty: "n") == nil)
    #expect(try content.value(Int?.self, forProperty: "missing") == nil)
    #expect(try content.value(Int?.self, forProperty: "i") == 42)
    #expect(try content.value(GeneratedContent.self, forProperty: "a").jsonString == "[1,2]")
  }

  @Test func accessorErrors() throws {
    let content = try GeneratedContent(json: #"{"i": 1.5, "s": "x"}"#)
    #expect(throws: LanguageModelSession.GenerationError.self) {
      try content.value(Int.self, forProperty: "i")  // not integral
    }
    #expect(throws: LanguageModelSession.GenerationError.self) {
      try content.value(Int.self, forProperty: "s")
    }
    #expect(throws: LanguageModelSession.GenerationError.self) {
      try content.value(String.self, forProperty: "missing")
    }
    #expect(throws: LanguageModelSession.GenerationError.self) {
      try GeneratedContent("x").value(String.self, forProperty: "a")  // not a structure
    }
    #expect(throws: LanguageModelSession.GenerationError.self) {
      try GeneratedContent("x").value(Bool.self)
    }
    do {
      _ = try content.value(String.self, forProperty: "missing")
    } catch let error as LanguageModelSession.GenerationError {
      guard case .decodingFailure(let context) = error else {
        Issue.record("expected decodingFailure, got \(error)")
        return
      }
      #expect(context.debugDescription.contains("missing"))
    }
  }

  @Test func roundTripsAGenerableType() throws {
    let book = Book(title: "Dune", year: 1965, genre: .fiction, tags: ["a"])
    let content = GeneratedContent(book)
    #expect(content.jsonString == #"{"title":"Dune","year":1965,"genre":"fiction","subtitle":null,"tags":["a"]}"#)
    #expect(try Book(GeneratedContent(json: content.jsonString)) == book)
    #expect(try content.value(Book.self) == book)
  }

  @Test func equalityIncludesTheID() {
    let id = GenerationID()
    #expect(GeneratedContent("a", id: id) == GeneratedContent("a", id: id))
    #expect(GeneratedContent("a", id: id) != GeneratedContent("a"))
    #expect(GenerationID() != GenerationID())
    var content = GeneratedContent(kind: .bool(true), id: id)
    content.id = nil
    #expect(content == GeneratedContent(true))
  }

  @Test func optionalAndArrayConformances() {
    let none: Int? = nil
    #expect(none.generatedContent.jsonString == "null")
    #expect(Optional(3).generatedContent.jsonString == "3")
    #expect([["a"], ["b", "c"]].generatedContent.jsonString == #"[["a"],["b","c"]]"#)
    #expect(throws: LanguageModelSession.GenerationError.self) { try [Int](GeneratedContent(1)) }
    #expect(throws: LanguageModelSession.GenerationError.self) { try Never(GeneratedContent(1)) }
  }

  @Test func asPartiallyGenerated() {
    #expect("abc".asPartiallyGenerated() == "abc")
    #expect([1, 2].asPartiallyGenerated() == [1, 2])
    let partial = Book(title: "T", year: 2000, genre: .poetry).asPartiallyGenerated()
    #expect(partial.title == "T")
    #expect(partial.genre == .poetry)
  }
}
