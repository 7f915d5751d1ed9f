import FMTestSupport
import Foundation
@_spi(Engine) import FoundationModels
import Testing

/// gpt-oss's harmony channels: the analysis channel is reasoning, the final channel the answer;
/// guided output starts in the final channel; the reasoning level reaches `reasoning_effort`.
@Suite struct HarmonyReasoningTests {
  static let template = "openai-gpt-oss-120b.jinja"

  static func model(_ reply: String) throws -> SystemLanguageModel {
    let scripted = ScriptedTokenModel.answering(
      tokens: ["Hello", " there", "Let", " me", " see", "{\"", "\":", "\"", "name", "Rex", "}"],
      control: ["<|channel|>", "<|message|>", "<|end|>", "<|start|>", "<|return|>"], contextLength: 8192,
      // The thinking ends with `<|start|>assistant` too: the answer starts after the question.
      answerMarkers: ["?<|end|><|start|>assistant"]
    ) { _ in [reply] }
    return SystemLanguageModel(
      tokenModel: scripted, contextSize: 8192, chatTemplate: try ChatTemplateFiles.source(template))
  }

  static func thoughts(in session: LanguageModelSession) -> [String] {
    session.transcript.compactMap { entry -> String? in
      guard case .reasoning(let reasoning) = entry else { return nil }
      return reasoning.segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined()
    }
  }

  @Test func theAnalysisChannelIsReasoningAndTheFinalChannelTheAnswer() async throws {
    let session = LanguageModelSession(
      model: try Self.model(
        "<|channel|>analysis<|message|>Let me see<|end|><|start|>assistant<|channel|>final<|message|>Hello there"))
    let response = try await session.respond(to: "Hi?")
    #expect(response.content == "Hello there")
    #expect(Self.thoughts(in: session) == ["Let me see"])
  }

  /// With tools, a final answer is still an answer: `<|channel|>` begins the call's marker
  /// too, and does not commit the turn to a call.
  @Test func withToolsTheFinalChannelIsTheAnswer() async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: try Self.model(
        "<|channel|>analysis<|message|>Let me see<|end|><|start|>assistant<|channel|>final<|message|>Hello there"),
      tools: [weather])
    let response = try await session.respond(to: "Hi?", options: GenerationOptions(samplingMode: .greedy))
    #expect(response.content == "Hello there")
    #expect(weather.cities.withLock { $0 }.isEmpty)
  }

  /// After the analysis, `<|start|>assistant<|channel|>final<|message|>` is forced, and the
  /// answer in the final channel is held to the schema.
  @Test func guidedOutputStartsInTheFinalChannel() async throws {
    let schema = GenerationSchema(
      type: GeneratedContent.self, properties: [.init(name: "name", type: String.self, guides: [.anyOf(["Rex"])])])
    let session = LanguageModelSession(
      model: try Self.model(
        #"<|channel|>analysis<|message|>Let me see<|end|><|start|>assistant<|channel|>final<|message|>{"name":"Rex"}"#))
    let response = try await session.respond(to: "A pet?", schema: schema, includeSchemaInPrompt: false)
    #expect(try response.content.value(String.self, forProperty: "name") == "Rex")
    #expect(Self.thoughts(in: session) == ["Let me see"])
  }

  @Test func theReasoningLevelIsTheTemplatesReasoningEffort() async throws {
    let model = try Self.model("")
    let request = { (level: ContextOptions.ReasoningLevel?) in
      LanguageModelExecutorGenerationRequest(
        id: UUID(), transcript: Transcript(entries: [.prompt(.init(segments: [.text(.init(content: "Hi?"))]))]),
        enabledTools: [], generationOptions: GenerationOptions(),
        contextOptions: level.map { ContextOptions(reasoningLevel: $0) } ?? ContextOptions(), metadata: [:])
    }
    #expect(try await model.renderedPrompt(for: request(.deep)).text.contains("Reasoning: high"))
    #expect(try await model.renderedPrompt(for: request(.light)).text.contains("Reasoning: low"))
    #expect(try await model.renderedPrompt(for: request(nil)).text.contains("Reasoning: medium"))
  }
}
