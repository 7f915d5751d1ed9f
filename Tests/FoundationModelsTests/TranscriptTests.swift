import Foundation
import FoundationModels
import Testing

@Suite struct TranscriptTests {
  static let sample: Transcript = {
    let tool = BookLookup()
    return Transcript(entries: [
      .instructions(
        .init(
          id: "i1", segments: [.text(.init(id: "s1", content: "You are a librarian."))],
          toolDefinitions: [Transcript.ToolDefinition(tool: tool)])),
      .prompt(
        .init(
          id: "p1", segments: [.text(.init(id: "s2", content: "Suggest a book."))],
          options: GenerationOptions(
            samplingMode: .random(top: 40, seed: 7), temperature: 0.5, maximumResponseTokens: 100),
          responseFormat: .init(type: Book.self))),
      .toolCalls(
        .init(
          id: "c1",
          [
            .init(id: "call1", toolName: "BookLookup", arguments: GeneratedContent(properties: ["title": "Dune"]))
          ])),
      .toolOutput(.init(id: "call1", toolName: "BookLookup", segments: [.text(.init(id: "s3", content: "Found"))])),
      .response(
        .init(
          id: "r1", assetIDs: ["asset"],
          segments: [
            .structure(
              .init(
                id: "s4", schemaName: "Book",
                content: GeneratedContent(Book(title: "Dune", year: 1965, genre: .fiction, tags: ["a"]))))
          ])),
      .prompt(
        .init(
          id: "p2", segments: [.text(.init(id: "s5", content: "Again"))],
          options: GenerationOptions(samplingMode: .greedy))),
      .prompt(
        .init(
          id: "p3", segments: [.text(.init(id: "s6", content: "Once more"))],
          options: GenerationOptions(samplingMode: .random(probabilityThreshold: 0.9)))),
    ])
  }()

  @Test func roundTripsThroughJSON() throws {
    let data = try JSONEncoder().encode(Self.sample)
    let decoded = try JSONDecoder().decode(Transcript.self, from: data)
    #expect(decoded == Self.sample)
    #expect(decoded.map(\.id) == ["i1", "p1", "c1", "call1", "r1", "p2", "p3"])
  }

  @Test func hasApplesShape() throws {
    let json = try encodedObject(Self.sample)
    #expect(json["version"] as? Int == 1)
    #expect(json["type"] as? String == "FoundationModels.Transcript")
    let entries = try json.object("transcript").array("entries").compactMap { $0 as? [String: Any] }
    #expect(
      entries.map { $0["role"] as? String } == ["instructions", "user", "response", "tool", "response", "user", "user"])
    let instructions = entries[0]
    #expect(
      try instructions.array("contents").first.flatMap { $0 as? [String: Any] }?["text"] as? String
        == "You are a librarian.")
    let tool = try #require(try instructions.array("tools").first as? [String: Any])
    #expect(try tool.object("function")["name"] as? String == "BookLookup")
    #expect(try tool.object("function").object("parameters")["title"] as? String == "Query")
    let prompt = entries[1]
    #expect(try prompt.object("options").object("sampling")["k"] as? Int == 40)
    #expect(try prompt.object("options")["temperature"] as? Double == 0.5)
    #expect(try prompt.object("responseFormat")["type"] as? String == "jsonSchema")
    #expect(try prompt.object("responseFormat").object("jsonSchema")["name"] as? String == "Book")
    let call = try #require(try entries[2].array("toolCalls").first as? [String: Any])
    #expect(call["name"] as? String == "BookLookup")
    #expect(call["arguments"] as? String == #"{"title":"Dune"}"#)
    #expect(entries[3]["toolCallID"] as? String == "call1")
    #expect(entries[3]["toolName"] as? String == "BookLookup")
    let structure = try #require(try entries[4].array("contents").first as? [String: Any])
    #expect(structure["type"] as? String == "structure")
    #expect(structure["source"] as? String == "Book")
    #expect((structure["content"] as? String)?.hasPrefix(#"{"title":"Dune","year":1965"#) == true)
    #expect(entries[4]["assets"] as? [String] == ["asset"])
  }

  @Test func decodesAStringVersionAndRejectsOtherTypes() throws {
    let text =
      #"{"version":"1.1","type":"FoundationModels.Transcript","transcript":{"entries":[{"id":"x","role":"user","contents":[{"type":"text","id":"t","text":"hi"}]}]}}"#
    let transcript = try JSONDecoder().decode(Transcript.self, from: Data(text.utf8))
    guard case .prompt(let prompt)? = transcript.first else {
      Issue.record("expected a prompt")
      return
    }
    #expect(prompt.segments == [.text(.init(id: "t", content: "hi"))])
    #expect(prompt.options == GenerationOptions())
    let wrong = text.replacingOccurrences(of: "FoundationModels.Transcript", with: "Other")
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Transcript.self, from: Data(wrong.utf8)) }
    let badRole = text.replacingOccurrences(of: #""user""#, with: #""narrator""#)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Transcript.self, from: Data(badRole.utf8)) }
  }

  @Test func isARandomAccessCollection() {
    let transcript = Self.sample
    #expect(transcript.count == 7)
    #expect(transcript[4].id == "r1")
    #expect(transcript.last?.id == "p3")
    #expect(Array(transcript.dropFirst(5)).count == 2)
    guard case .toolCalls(let calls) = transcript[2] else {
      Issue.record("expected tool calls")
      return
    }
    #expect(calls.count == 1)
    #expect(calls[0].toolName == "BookLookup")
    #expect(Transcript().isEmpty)
  }

  @Test func describesEntries() {
    let description = Self.sample.description
    #expect(description.contains("You are a librarian."))
    #expect(description.contains(#"BookLookup({"title":"Dune"})"#))
  }

  @Test func responseFormatNames() {
    #expect(Transcript.ResponseFormat(type: Book.self).name == "Book")
    #expect(Transcript.ResponseFormat(schema: Genre.generationSchema).name == "Genre")
    #expect(Transcript.ResponseFormat(type: Book.self) == Transcript.ResponseFormat(schema: Book.generationSchema))
    #expect(Transcript.ResponseFormat(type: Book.self) != Transcript.ResponseFormat(type: Genre.self))
  }

  @Test func segmentIdentity() {
    let text = Transcript.TextSegment(content: "a")
    #expect(Transcript.Segment.text(text).id == text.id)
    #expect(Transcript.TextSegment(content: "a").id != text.id)
  }
}
