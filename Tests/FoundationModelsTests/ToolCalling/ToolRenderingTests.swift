import Testing

@testable import FoundationModels

@Suite struct ToolRenderingTests {
  @Test func aToolIsDescribedWithItsSchemaUnlessItAsksNotToBe() {
    let described = TranscriptRenderer.toolJSON(Transcript.ToolDefinition(tool: BookLookup()))
    #expect(described.contains(#""parameters":"#))
    let known = TranscriptRenderer.toolJSON(Transcript.ToolDefinition(tool: Calculator()))
    #expect(known == #"{"type":"function","function":{"name":"calc","description":"Adds numbers."}}"#)
  }

  @Test func aResponseFollowedByCallsIsOneAssistantMessage() {
    let call = Transcript.ToolCall(id: "1", toolName: "calc", arguments: GeneratedContent(properties: [:]))
    let entries: [Transcript.Entry] = [
      .prompt(Transcript.Prompt(segments: [.text(.init(content: "Add"))])),
      .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Let me add."))])),
      .toolCalls(Transcript.ToolCalls([call])),
    ]
    let messages = TranscriptRenderer().messages(for: entries).messages
    #expect(messages.count == 2)
    #expect(messages[1].content == "Let me add.")
    #expect(messages[1].toolCalls.map(\.name) == ["calc"])
  }
}
