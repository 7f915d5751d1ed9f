import FoundationModels

// Hand-written Generable types shaped like the `@Generable` macro's output, so the value types
// can be tested before (and independently of) the macro.

/// A string enumeration, as `@Generable enum Genre { case fiction, poetry }` expands.
enum Genre: String, Generable, Equatable {
  case fiction, poetry

  static var generationSchema: GenerationSchema {
    GenerationSchema(type: Genre.self, description: "A kind of book", anyOf: ["fiction", "poetry"])
  }

  init(_ content: GeneratedContent) throws {
    let raw = try content.value(String.self)
    guard let genre = Genre(rawValue: raw) else {
      throw LanguageModelSession.GenerationError.decodingFailure(
        .init(debugDescription: "Unknown genre \(raw)"))
    }
    self = genre
  }

  var generatedContent: GeneratedContent { GeneratedContent(rawValue) }
}

/// A structure with a nested enum, an optional and a guided array.
struct Book: Generable, Equatable {
  var title: String
  var year: Int
  var genre: Genre
  var subtitle: String?
  var tags: [String]

  init(title: String, year: Int, genre: Genre, subtitle: String? = nil, tags: [String] = []) {
    self.title = title
    self.year = year
    self.genre = genre
    self.subtitle = subtitle
    self.tags = tags
  }

  static var generationSchema: GenerationSchema {
    GenerationSchema(
      type: Book.self, description: "A book",
      properties: [
        .init(name: "title", description: "The title", type: String.self),
        .init(name: "year", type: Int.self, guides: [.range(1450...2100)]),
        .init(name: "genre", type: Genre.self),
        .init(name: "subtitle", type: String?.self),
        .init(name: "tags", type: [String].self, guides: [.count(1...3), .element(.anyOf(["a", "b"]))]),
      ])
  }

  init(_ content: GeneratedContent) throws {
    title = try content.value(forProperty: "title")
    year = try content.value(forProperty: "year")
    genre = try content.value(forProperty: "genre")
    subtitle = try content.value(forProperty: "subtitle")
    tags = try content.value(forProperty: "tags")
  }

  var generatedContent: GeneratedContent {
    GeneratedContent(properties: [
      "title": title, "year": year, "genre": genre, "subtitle": subtitle, "tags": tags,
    ])
  }

  struct PartiallyGenerated: ConvertibleFromGeneratedContent {
    var title: String?
    var year: Int?
    var genre: Genre?
    var tags: [String]?

    init(_ content: GeneratedContent) throws {
      title = try content.value(forProperty: "title")
      year = try content.value(forProperty: "year")
      genre = try content.value(forProperty: "genre")
      tags = try content.value(forProperty: "tags")
    }
  }
}

/// A recursive structure.
struct TreeNode: Generable {
  var value: Int
  var children: [TreeNode]

  static var generationSchema: GenerationSchema {
    GenerationSchema(
      type: TreeNode.self,
      properties: [
        .init(name: "value", type: Int.self),
        .init(name: "children", type: [TreeNode].self),
      ])
  }

  init(_ content: GeneratedContent) throws {
    value = try content.value(forProperty: "value")
    children = try content.value(forProperty: "children")
  }

  var generatedContent: GeneratedContent {
    GeneratedContent(properties: ["value": value, "children": children])
  }
}

/// A union, as `@Generable enum` with associated values expands.
struct Shelf: Generable {
  static var generationSchema: GenerationSchema {
    GenerationSchema(type: Shelf.self, anyOf: [Book.self, Genre.self])
  }

  init(_ content: GeneratedContent) throws {}

  var generatedContent: GeneratedContent { GeneratedContent(kind: .null) }
}
