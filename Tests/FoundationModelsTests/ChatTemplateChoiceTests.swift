@_spi(Engine) import FoundationModels
import FMTestSupport
import Foundation
import InferenceEngine
import Testing

/// Which template a session renders with: the model's own, one given in its place, or a clear
/// error for a model without one.
@Suite struct ChatTemplateChoiceTests {
  static let bracketTemplate =
    "{% for m in messages %}[{{ m.role }}]{{ m.content }}<|im_end|>{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"

  @Test func aModelWithoutATemplateNamesHowToGiveOne() async throws {
    let base = ScriptedTokenModel(tokens: ["Hi"], chatTemplate: nil) { _ in [:] }
    let session = LanguageModelSession(model: SystemLanguageModel(tokenModel: base))
    await #expect {
      try await session.respond(to: "Hello")
    } throws: { error in
      "\(error)".contains("--chat-template-file") && "\(error)".contains("chatTemplate:")
    }
    // The transcript holds no half-made turn, and a template given afterwards works.
    #expect(session.transcript.count == 0)
  }

  @Test func aGivenTemplateReplacesTheModelsOwn() async throws {
    let model = ScriptedTokenModel.replying("x")
    let request = LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: Transcript(entries: [.prompt(.init(segments: [.text(.init(content: "Hello"))]))]),
      enabledTools: [], generationOptions: GenerationOptions(), contextOptions: ContextOptions(), metadata: [:])
    let given = try await SystemLanguageModel(tokenModel: model, chatTemplate: Self.bracketTemplate)
      .renderedPrompt(for: request).text
    #expect(given == "[user]Hello<|im_end|><|im_start|>assistant\n")
    let own = try await SystemLanguageModel(tokenModel: model).renderedPrompt(for: request).text
    #expect(own == "<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n")
    // Request metadata carries the template's own variables.
    let variables = LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: request.transcript, enabledTools: [], generationOptions: GenerationOptions(),
      contextOptions: ContextOptions(), metadata: ["chat_template_kwargs": #"{"mood":"calm"}"#])
    let moody = try await SystemLanguageModel(tokenModel: model, chatTemplate: "{{ mood }}").renderedPrompt(for: variables)
    #expect(moody.text == "calm")
  }

  @Test func aTemplateThatDoesNotParseIsAssetsUnavailable() async throws {
    let model = ScriptedTokenModel.replying("x")
    let session = LanguageModelSession(model: SystemLanguageModel(tokenModel: model, chatTemplate: "{% if %}"))
    await #expect {
      try await session.respond(to: "Hello")
    } throws: { error in
      "\(error)".contains("assetsUnavailable") && "\(error)".contains("does not parse")
    }
  }
}
