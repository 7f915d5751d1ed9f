import FMTestSupport
import Foundation
import FoundationModels
import Testing

/// Constrained decoding through the session, on a scripted model that "wants" to write
/// something else: the schema, not the model, decides what comes out.
@Suite struct GuidedGenerationTests {
  static let vocabulary = [
    "{\"", "\":", "\",\"", "\"", "name", "age", "kind", "Rex", "300", "12", "cow", "dog", "cat", "}", ",", "[", "]",
  ]

  func model(wanting reply: String) -> SystemLanguageModel {
    .scripted(.replying(reply, tokens: Self.vocabulary))
  }

  var petSchema: GenerationSchema {
    GenerationSchema(
      type: GeneratedContent.self,
      properties: [
        .init(name: "name", type: String.self),
        .init(name: "age", type: Int.self, guides: [.range(0...120)]),
        .init(name: "kind", type: String.self, guides: [.anyOf(["cat", "dog"])]),
      ])
  }

  @Test func guidesAreEnforcedWhileDecoding() async throws {
    let session = LanguageModelSession(model: model(wanting: #"{"name":"Rex","age":300,"kind":"cow"}"#))
    let response = try await session.respond(to: "A pet, please.", schema: petSchema, includeSchemaInPrompt: false)
    let content = response.content
    #expect(try content.value(String.self, forProperty: "name") == "Rex")
    let age = try content.value(Int.self, forProperty: "age")
    #expect((0...120).contains(age))
    #expect(["cat", "dog"].contains(try content.value(String.self, forProperty: "kind")))
    guard case .structure(_, let keys) = content.kind else {
      Issue.record("not an object")
      return
    }
    #expect(keys == ["name", "age", "kind"], "declaration order")
  }

  /// A number ends where the model would end it: a model that pretty-prints wants a line break
  /// or `,\n` after `"age":12`, which compact JSON bans, and its next choice is another digit,
  /// before `,`. The number still ends at 12 (it went on to 120 before).
  @Test(arguments: ["\n,", ",\n"])
  func aNumberEndsWhereTheModelWouldLayItOut(layout: String) async throws {
    let tokens = Self.vocabulary + ["\n", ",\n", "0"]
    let reply = ScriptedTokenModel.replying(
      "{\"name\":\"Rex\",\"age\":12\(layout)\"kind\":\"cat\"}", tokens: tokens)
    let pretty = ScriptedTokenModel(tokens: tokens) { context in
      var preferences = reply.preferences(after: context)
      let text = String(decoding: context.flatMap { reply.piece(of: $0) }, as: UTF8.self)
      if text.hasSuffix("\"age\":12") { preferences[reply.tokenize("0", parseSpecial: false)[0]] = 5 }
      return preferences
    }
    let session = LanguageModelSession(model: .scripted(pretty))
    let response = try await session.respond(
      to: "A pet, please.", schema: petSchema, includeSchemaInPrompt: false,
      options: GenerationOptions(samplingMode: .greedy))
    #expect(try response.content.value(Int.self, forProperty: "age") == 12)
  }

  @Test func aValidObjectTheModelWantsComesThroughUnchanged() async throws {
    let session = LanguageModelSession(model: model(wanting: #"{"name":"Rex","age":12,"kind":"dog"}"#))
    let response = try await session.respond(to: "A pet.", schema: petSchema)
    #expect(response.content.jsonString == #"{"name":"Rex","age":12,"kind":"dog"}"#)
    #expect(response.usage.output.totalTokenCount > 0)
  }

  @Test func aTightBudgetStillClosesTheObject() async throws {
    let session = LanguageModelSession(
      model: model(wanting: #"{"name":"Rex Rex Rex Rex Rex Rex Rex","age":12,"kind":"dog"}"#))
    let response = try await session.respond(
      to: "A pet.", schema: petSchema, options: GenerationOptions(maximumResponseTokens: 12))
    #expect(response.rawContent.isComplete)
    #expect((0...120).contains(try response.content.value(Int.self, forProperty: "age")))
  }

  @Test func streamedSnapshotsArePartialObjects() async throws {
    let session = LanguageModelSession(model: model(wanting: #"{"name":"Rex","age":12,"kind":"dog"}"#))
    var sawPartial = false
    for try await snapshot in session.streamResponse(to: "A pet.", schema: petSchema) {
      if !snapshot.rawContent.isComplete { sawPartial = true }
    }
    #expect(sawPartial)
  }

  /// A divisor of more than 15 digits is one of the forms still refused.
  @Test func plainJSONSchemaNamesUnsupportedKeywords() {
    #expect {
      try GenerationSchema(
        jsonSchema: #"{"type":"object","properties":{"a":{"type":"number","multipleOf":0.0000000000000001}}}"#)
    } throws: { error in
      "\(error)".contains("multipleOf")
    }
  }

  @Test func plainJSONSchemaConstrainsGeneration() async throws {
    let schema = try GenerationSchema(
      jsonSchema:
        #"{"type":"object","properties":{"kind":{"enum":["cat","dog"]},"age":{"type":"integer","maximum":20}},"required":["kind","age"],"additionalProperties":false}"#
    )
    let session = LanguageModelSession(model: model(wanting: #"{"kind":"cow","age":300}"#))
    // Seeded: once the model's wish is refused, every allowed token is equally likely, and an
    // unseeded run now and then wrote a negative integer too long for Int (the schema has no
    // minimum) — valid JSON of the schema, but not this test's point.
    let response = try await session.respond(
      to: "A pet.", schema: schema, options: GenerationOptions(samplingMode: .random(top: 1000, seed: 3)))
    #expect(["cat", "dog"].contains(try response.content.value(String.self, forProperty: "kind")))
    #expect(try response.content.value(Int.self, forProperty: "age") <= 20)
  }
}

/// Guided generation on the real small model: every answer decodes into the Swift type and
/// keeps its guides, whatever the model would rather have written.
@Suite struct RealModelGuidedGenerationTests {
  let model = SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: 1024)

  @Test(arguments: ["A famous novel.", "A book about the sea.", "Any book."])
  func everyAnswerDecodesIntoTheType(prompt: String) async throws {
    let session = LanguageModelSession(model: model)
    let response = try await session.respond(
      to: prompt, generating: Book.self, options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 80))
    let book = response.content
    #expect((1450...2100).contains(book.year))
    #expect((1...3).contains(book.tags.count))
    #expect(book.tags.allSatisfy { ["a", "b"].contains($0) })
    #expect(session.transcript.count == 2)
  }

  @Test func recursiveTypesCloseWithinTheBudget() async throws {
    let session = LanguageModelSession(model: model)
    let response = try await session.respond(
      to: "A tree of numbers.", generating: TreeNode.self,
      options: GenerationOptions(samplingMode: .random(top: 20, seed: 3), maximumResponseTokens: 40))
    #expect(response.rawContent.isComplete)
    #expect(response.usage.output.totalTokenCount <= 60)
  }

  @Test func snapshotsArePartiallyGeneratedValues() async throws {
    let session = LanguageModelSession(model: model)
    var titles: [String] = []
    let stream = session.streamResponse(
      to: "A book.", generating: Book.self, options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 60)
    )
    for try await snapshot in stream {
      if let title = snapshot.content.title { titles.append(title) }
    }
    #expect(!titles.isEmpty)
    #expect(titles.last == (try await stream.collect()).content.title)
  }
}
