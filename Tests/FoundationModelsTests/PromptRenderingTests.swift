import Testing

@testable import FoundationModels

/// The internal text forms the session renders into the chat template.
@Suite struct PromptRenderingTests {
  @Test func entriesHaveChatRolesAndText() {
    let transcript = TranscriptTests.sample
    #expect(transcript.map(\.chatRole) == ["system", "user", "assistant", "tool", "assistant", "user", "user"])
    #expect(transcript[0].renderedText == "You are a librarian.")
    #expect(transcript[2].renderedText == #"{"name":"BookLookup","arguments":{"title":"Dune"}}"#)
    #expect(transcript[4].renderedText.hasPrefix(#"{"title":"Dune""#))
  }

  @Test func schemaTextKeepsDeclarationOrder() {
    let text = Book.generationSchema.jsonString
    let order = ["\"title\":{", "\"year\":{", "\"genre\":{", "\"subtitle\":{", "\"tags\":{"].compactMap {
      text.range(of: $0)?.lowerBound
    }
    #expect(order.count == 5)
    #expect(order == order.sorted())
  }

  @Test func toolNamesAndDescriptionsAreEscaped() {
    let definition = Transcript.ToolDefinition(
      name: "say\"hi\"", description: "line\nbreak", parameters: String.generationSchema)
    #expect(
      definition.functionJSON
        == #"{"type":"function","function":{"name":"say\"hi\"","description":"line\nbreak","parameters":{"type":"string"}}}"#
    )
  }

  @Test func partialTopLevelArrays() throws {
    let content = try GeneratedContent(json: "[1, 2")
    #expect(content.arrayElements?.map(\.isComplete) == [true, false])
    #expect(!content.isComplete)
  }
}
