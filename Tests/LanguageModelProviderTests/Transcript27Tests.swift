import FoundationModels
import Testing

/// The 27 transcript and tool API as code written for Apple's 27 SDK uses it.
@Suite struct Transcript27Tests {
  @Test func theTranscriptIsEditableAndItsHistoryKeepsTheInstructions() {
    var transcript = Transcript(entries: [
      .instructions(.init(segments: [.text(.init(content: "Be brief."))], toolDefinitions: [])),
      .prompt(.init(segments: [.text(.init(content: "One"))])),
      .response(.init(assetIDs: [], segments: [.text(.init(content: "Two"))])),
    ])
    #expect(transcript.history.count == 2)
    transcript.history = [.prompt(.init(segments: [.text(.init(content: "Summary"))]))]
    #expect(transcript.count == 2)
    #expect(transcript.first?.description == "(Instructions) Be brief.")
    transcript.append(.response(.init(segments: [.text(.init(content: "OK"))])))
    transcript[1] = .prompt(.init(segments: [.text(.init(content: "Edited"))]))
    #expect(transcript.map(\.description) == ["(Instructions) Be brief.", "(Prompt) Edited", "(Response) OK"])
    transcript.removeAll()
    #expect(transcript.isEmpty)
  }

  @Test func structuredSegmentsHaveASchemaName() {
    var segment = Transcript.StructuredSegment(schemaName: "Forecast", content: GeneratedContent(properties: [:]))
    #expect(segment.schemaName == "Forecast")
    segment.schemaName = "Weather"
    #expect(segment.schemaName == "Weather")
  }

  @Test func capabilitiesAndSchemaNamesAsProvidersUseThem() {
    let capabilities = LanguageModelCapabilities([.vision, .toolCalling])
    #expect(capabilities.contains(.toolCalling) && !capabilities.contains(.reasoning))
    #expect(Forecast.generationSchema.name == "Forecast")
    let kind = GenerationOptions.SamplingMode.random(probabilityThreshold: 0.9, seed: 3).kind
    guard case .randomProbabilityThreshold(let threshold, seed: let seed) = kind else {
      Issue.record("unexpected \(kind)")
      return
    }
    #expect(threshold == 0.9 && seed == 3)
  }

  @Test func anyToolCallsTheToolItWraps() async throws {
    let tool = AnyTool(Weather())
    #expect(tool.name == "weather")
    #expect(Transcript.ToolDefinition(tool: tool).parameters.debugDescription.contains("city"))
    let output = try await tool.call(arguments: GeneratedContent(properties: ["city": "Rome"]))
    #expect(String(describing: output).contains("warm in Rome"))
  }
}
