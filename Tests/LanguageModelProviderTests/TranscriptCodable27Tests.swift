import Foundation
import FoundationModels
import Testing

/// The transcript's JSON carries the 27 additions, so a saved conversation with reasoning,
/// metadata, attachments and custom segments survives a restart.
@Suite struct TranscriptCodable27Tests {
  struct Citation: Transcript.CustomSegment {
    struct Source: Codable, Equatable, Sendable {
      var title: String
      var page: Int
    }
    var id = "cite-1"
    var content = Source(title: "Rivers", page: 12)
  }

  @Test func reasoningMetadataAttachmentsAndCustomSegmentsRoundTrip() throws {
    let transcript = Transcript(entries: [
      .prompt(
        Transcript.Prompt(
          metadata: ["user": "42", "attempt": 2],
          segments: [
            .text(.init(content: "Look")),
            .attachment(.init(content: .image(.init(imageURL: URL(fileURLWithPath: "/tmp/cat.png"))), label: "cat")),
          ], contextOptions: ContextOptions(includeSchemaInPrompt: false, reasoningLevel: .custom("8k")))),
      .reasoning(
        Transcript.Reasoning(
          id: "r", metadata: ["model": "thinker"], segments: [.text(.init(content: "Hmm"))], signature: Data([9, 8]))),
      .toolCalls(
        Transcript.ToolCalls([
          Transcript.ToolCall(
            id: "c", metadata: ["latency": 0.25], toolName: "weather",
            arguments: GeneratedContent(properties: ["city": "Oslo"]))
        ])),
      .response(
        Transcript.Response(
          metadata: ["stopReason": "end_turn"],
          segments: [
            .text(.init(content: "A cat.")),
            .attachment(.init(content: .image(.init(data: Data([0x89, 0x50]), contentType: "image/png")))),
            .custom(Citation()),
          ])),
    ])
    let data = try JSONEncoder().encode(transcript)
    let decoded = try JSONDecoder().decode(Transcript.self, from: data)
    #expect(decoded.count == transcript.count)
    guard case .prompt(let prompt) = decoded[0], case .reasoning(let reasoning) = decoded[1],
      case .toolCalls(let calls) = decoded[2], case .response(let response) = decoded[3]
    else {
      Issue.record("entries changed kind: \(decoded)")
      return
    }
    #expect(prompt.metadata["user"] as? String == "42")
    #expect(prompt.metadata["attempt"] as? Int == 2)
    #expect(prompt.contextOptions == ContextOptions(includeSchemaInPrompt: false, reasoningLevel: .custom("8k")))
    #expect(
      prompt.segments
        == transcript.first.map { entry in
          if case .prompt(let original) = entry { return original.segments } else { return [] }
        })
    #expect(
      reasoning
        == Transcript.Reasoning(
          id: "r", metadata: ["model": "thinker"], segments: reasoning.segments, signature: Data([9, 8])))
    #expect(calls.first?.metadata["latency"] as? Double == 0.25)
    #expect(response.metadata["stopReason"] as? String == "end_turn")
    #expect(response.segments.count == 3)
    #expect(response.segments[2].description == #"{"page":12,"title":"Rivers"}"#)
    // Encoding the decoded transcript gives the same JSON: nothing was lost on the way.
    let again = try JSONEncoder().encode(decoded)
    #expect(
      try JSONSerialization.jsonObject(with: again) as? NSDictionary == JSONSerialization.jsonObject(with: data)
        as? NSDictionary)
  }
}
