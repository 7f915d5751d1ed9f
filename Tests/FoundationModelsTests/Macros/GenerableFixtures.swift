import FoundationModels

// Types declared with the real `@Generable` and `@Guide` macros, for the usage tests.

@Generable(description: "A novel idea")
struct NovelIdea: Equatable {
  @Guide(description: "A short title")
  var title: String

  @Guide(description: "The year it is set in", .range(1450...2100))
  var year: Int

  var genre: Style

  var subtitle: String?

  @Guide(.count(1...3))
  @Guide(.element(.anyOf(["love", "war", "sea"])))
  var themes: [String]

  var author: Author?
}

@Generable(description: "A kind of story")
enum Style: Equatable {
  case fantasy, mystery, romance
}

@Generable
struct Author: Equatable {
  @Guide(description: "Full name")
  var name: String
  @Guide(/[A-Z]{2}/)
  var countryCode: String
}

/// A recursive struct: a node holds nodes.
@Generable
struct Outline: Equatable {
  var heading: String
  var children: [Outline]
}

/// A union with labelled, unlabelled and no associated values, and recursion.
@Generable(description: "An arithmetic expression")
indirect enum Expression: Equatable, Sendable {
  case number(value: Double)
  case sum(Expression, Expression)
  case negated(Expression)
  case variable(name: String, subscript: Int?)
  case zero
}

@Generable(representNilExplicitlyInGeneratedContent: true)
public struct ExplicitNil: Equatable {
  public var name: String
  public var nickname: String?
}

@Generable
struct Identified {
  var id: String
  var score: Double
}

/// A struct that holds a union, directly and in an optional array.
@Generable
struct Worksheet: Equatable {
  var title: String
  var answer: Expression
  var steps: [Expression]?
}

/// A generic struct.
@Generable
struct Box<Item: Generable & Equatable>: Equatable {
  var items: [Item]
  var label: String?
}

/// The hand-written fixture `Book` (`Fixtures/TestTypes.swift`), declared with the macros.
@Generable(description: "A book")
struct MacroBook {
  @Guide(description: "The title")
  var title: String
  @Guide(.range(1450...2100))
  var year: Int
  var genre: Genre
  var subtitle: String?
  @Guide(.count(1...3), .element(.anyOf(["a", "b"])))
  var tags: [String]
}
