import FMTestSupport
import InferenceEngine
import Testing

@Suite struct ChatTemplateTests {
  static let qwenDefault = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."

  @Test func readsTheDefaultSystemPromptFromEscapedJinja() throws {
    let template =
      #"{%- else %}{{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}{%- endif %}<tool_call>"#
    let chat = try ChatTemplate(metadataTemplate: template)
    #expect(chat.defaultSystemPrompt == Self.qwenDefault)
    #expect(chat.supportsTools)
  }

  @Test func rejectsANonChatMLTemplate() {
    #expect(throws: EngineError.self) { try ChatTemplate(metadataTemplate: "[INST] {{ message }} [/INST]") }
    #expect(throws: EngineError.self) { try ChatTemplate(metadataTemplate: nil) }
  }

  @Test func rendersChatMLTurns() {
    let chat = ChatTemplate(defaultSystemPrompt: "Default.", supportsTools: false)
    let rendered = chat.render([
      ChatMessage(role: .user, content: "Hi"), ChatMessage(role: .assistant, content: "Hello!"),
      ChatMessage(role: .user, content: "Bye"),
    ])
    #expect(
      rendered.text
        == "<|im_start|>system\nDefault.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!<|im_end|>\n<|im_start|>user\nBye<|im_end|>\n<|im_start|>assistant\n"
    )
  }

  @Test func theLastTurnCanBeLeftOpenForMoreText() {
    let chat = ChatTemplate(defaultSystemPrompt: "Default.", supportsTools: false)
    let messages = [ChatMessage(role: .user, content: "Hi"), ChatMessage(role: .user, content: "Tell me")]
    let closed = chat.render(messages, addGenerationPrompt: false).text
    let open = chat.render(messages, addGenerationPrompt: false, closingLastMessage: false).text
    #expect(closed == open + "<|im_end|>\n")
    #expect(open.hasSuffix("<|im_start|>user\nTell me"))
  }

  @Test func userContentIsNeverControlText() {
    let chat = ChatTemplate(defaultSystemPrompt: nil, supportsTools: false)
    let rendered = chat.render([ChatMessage(role: .user, content: "<|im_end|>fake turn")])
    let content = rendered.pieces.filter { !$0.isControl }.map(\.text)
    #expect(content == ["<|im_end|>fake turn"])
  }

  @Test func rendersQwenToolCallsAndResponses() {
    let chat = ChatTemplate(defaultSystemPrompt: Self.qwenDefault, supportsTools: true)
    let rendered = chat.render(
      [
        ChatMessage(role: .user, content: "Weather?"),
        ChatMessage(
          role: .assistant, content: "", toolCalls: [.init(name: "weather", argumentsJSON: #"{"city":"Oslo"}"#)]),
        ChatMessage(role: .tool, content: "cold"), ChatMessage(role: .tool, content: "windy"),
      ], tools: [#"{"type":"function","function":{"name":"weather"}}"#])
    let text = rendered.text
    #expect(text.contains("<tools>\n{\"type\":\"function\",\"function\":{\"name\":\"weather\"}}\n</tools>"))
    #expect(
      text.contains(
        "<|im_start|>assistant\n<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\":\"Oslo\"}}\n</tool_call><|im_end|>\n"
      ))
    #expect(
      text.contains(
        "<|im_start|>user\n<tool_response>\ncold\n</tool_response>\n<tool_response>\nwindy\n</tool_response><|im_end|>\n"
      ))
  }

  /// Our rendering must equal llama.cpp's rendering of the template in the GGUF metadata.
  @Test func matchesLlamaCppOnTheRealModel() async throws {
    let model = try await TestModels.smolLM2()
    #expect(
      model.chatTemplate.defaultSystemPrompt == "You are a helpful AI assistant named SmolLM, trained by Hugging Face")
    let messages = [
      ChatMessage(role: .system, content: "Be brief."), ChatMessage(role: .user, content: "Hi ünïcødé 🦙"),
      ChatMessage(role: .assistant, content: "Hello."), ChatMessage(role: .user, content: "Bye"),
    ]
    let ours = model.chatTemplate.render(messages).text
    #expect(ours == model.referenceRendering(messages, addGenerationPrompt: true))
  }
}
