import FMTestSupport
import Foundation
@_spi(Engine) import FoundationModels
import InferenceEngine
import Testing

@testable import FoundationModels

/// A thinking model's output: thinking becomes reasoning entries, never answer text; guided
/// output starts after it; the reasoning level reaches the template's switch or is refused.
@Suite struct ReasoningTests {
  static let vocabulary = [
    "<think>", "</think>", "Hello", " there", "Let", " me", " see", "{\"", "\":", "\",\"", "\"", "name", "Rex", "}",
  ]

  static func thinkingModel(_ reply: String) throws -> SystemLanguageModel {
    SystemLanguageModel(
      tokenModel: ScriptedTokenModel.replying(reply, tokens: vocabulary),
      chatTemplate: try ChatTemplateFiles.source("Qwen-Qwen3-0.6B.jinja"))
  }

  @Test func theSplitterSeparatesThinkingFromTheAnswerAcrossChunks() throws {
    let syntax = try #require(try ChatTemplate(source: ChatTemplateFiles.source("Qwen-Qwen3-0.6B.jinja")).reasoning)
    var splitter = ReasoningSplitter(syntax: syntax, startsInThinking: false)
    var pieces: [ReasoningSplitter.Piece] = []
    for chunk in ["<th", "ink>\nLet me", " see.</th", "ink>\n\nHel", "lo"] { pieces += splitter.feed(chunk) }
    pieces += splitter.finish()
    let thought = pieces.compactMap { if case .reasoning(let text) = $0 { text } else { nil } }.joined()
    let answer = pieces.compactMap { if case .answer(let text) = $0 { text } else { nil } }.joined()
    #expect(thought == "Let me see.")
    #expect(answer == "Hello")
    // Output that does not open with the marker is all answer; the prompt may have opened it.
    var plain = ReasoningSplitter(syntax: syntax, startsInThinking: false)
    #expect(plain.feed("Hi <think>") + plain.finish() == [.answer("Hi <think>")])
    var opened = ReasoningSplitter(syntax: syntax, startsInThinking: true)
    #expect(opened.feed("Hmm.</think>Yes") + opened.finish() == [.reasoning("Hmm."), .answer("Yes")])
  }

  @Test func thinkingBecomesAReasoningEntry() async throws {
    let session = LanguageModelSession(model: try Self.thinkingModel("<think>\nLet me see.\n</think>\n\nHello there"))
    let response = try await session.respond(to: "Hi")
    #expect(response.content == "Hello there")
    let thoughts = session.transcript.compactMap { entry -> String? in
      guard case .reasoning(let reasoning) = entry else { return nil }
      return reasoning.segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined()
    }
    #expect(thoughts.count == 1)
    #expect(thoughts.first?.contains("Let me see.") == true)
  }

  /// The thinking is free; the answer after it is held to the schema.
  @Test func guidedOutputStartsAfterTheThinking() async throws {
    let schema = GenerationSchema(
      type: GeneratedContent.self, properties: [.init(name: "name", type: String.self, guides: [.anyOf(["Rex"])])])
    let session = LanguageModelSession(model: try Self.thinkingModel(#"<think>Let me see</think>{"name":"Rex"}"#))
    let response = try await session.respond(to: "A pet.", schema: schema, includeSchemaInPrompt: false)
    #expect(try response.content.value(String.self, forProperty: "name") == "Rex")
    #expect(session.transcript.contains { if case .reasoning = $0 { true } else { false } })
  }

  /// `custom("off")` sets the template's switch: Qwen3's prompt then closes the thinking, and
  /// the output is all answer.
  @Test func theReasoningLevelReachesTheTemplatesSwitch() async throws {
    // The scripted model continues from its last assistant marker, so its reply starts with
    // what the prompt wrote there.
    let model = try Self.thinkingModel("<think>\n\n</think>\n\nHello there")
    let request = { (level: ContextOptions.ReasoningLevel) in
      LanguageModelExecutorGenerationRequest(
        id: UUID(), transcript: Transcript(entries: [.prompt(.init(segments: [.text(.init(content: "Hi"))]))]),
        enabledTools: [], generationOptions: GenerationOptions(),
        contextOptions: ContextOptions(reasoningLevel: level), metadata: [:])
    }
    #expect(try await model.renderedPrompt(for: request(.custom("off"))).text.hasSuffix("<think>\n\n</think>\n\n"))
    #expect(try await !model.renderedPrompt(for: request(.deep)).text.contains("</think>"))
    let session = LanguageModelSession(model: model)
    let response = try await session.respond(to: "Hi", contextOptions: ContextOptions(reasoningLevel: .custom("off")))
    #expect(response.content == "Hello there")
  }

  /// Gemma 4's thought channel, `<|channel>thought\n`…`<channel|>`, is reasoning, switched on
  /// through `enable_thinking` (off, its prompt closes the channel).
  @Test func gemma4sThoughtChannelIsReasoning() async throws {
    let model = SystemLanguageModel(
      tokenModel: ScriptedTokenModel.answering(
        tokens: ["<|channel>", "<channel|>", "thought", "Hello", " there", "Let", " me", " see"],
        answerMarkers: ["<|turn>model\n"]
      ) { _ in ["<|channel>thought\nLet me see.<channel|>Hello there"] },
      chatTemplate: try ChatTemplateFiles.source("google-gemma-4-31B-it.jinja"))
    let session = LanguageModelSession(model: model)
    let response = try await session.respond(to: "Hi", contextOptions: ContextOptions(reasoningLevel: .deep))
    #expect(response.content == "Hello there")
    let thoughts = session.transcript.compactMap { entry -> String? in
      guard case .reasoning(let reasoning) = entry else { return nil }
      return reasoning.segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined()
    }
    #expect(thoughts == ["Let me see."])
    let request = LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: Transcript(entries: [.prompt(.init(segments: [.text(.init(content: "Hi"))]))]),
      enabledTools: [], generationOptions: GenerationOptions(), contextOptions: ContextOptions(), metadata: [:])
    #expect(try await model.renderedPrompt(for: request).text.hasSuffix("<|channel>thought\n<channel|>"))
  }

  @Test func aReasoningLevelOnAModelThatDoesNotThinkIsRefused() async throws {
    let session = LanguageModelSession(model: .scripted(.replying("Hi")))
    await #expect {
      try await session.respond(to: "Hi", contextOptions: ContextOptions(reasoningLevel: .deep))
    } throws: { error in
      "\(error)".contains("reasoning")
    }
    // The session stays usable.
    #expect(try await session.respond(to: "Hi").content == "Hi")
  }
}

/// A template that rewrites earlier turns: Qwen3's leaves past thinking out, so the second
/// turn's prompt differs from what the cache holds from the first answer on; the unchanged
/// prefix (everything before that answer) is still reused.
@Suite struct RewrittenTurnReuseTests {
  @Test func theUnchangedPrefixIsReusedWhenTheTemplateDropsPastThinking() async throws {
    let session = LanguageModelSession(
      model: try ReasoningTests.thinkingModel("<think>Let me see.</think>Hello there"),
      instructions: "Be brief.")
    let first = try await session.respond(to: "Hi")
    let second = try await session.respond(to: "Hi again")
    let (cached, total) = (second.usage.input.cachedTokenCount, second.usage.input.totalTokenCount)
    // The instructions and the first prompt are found in the cache; the rewritten answer is not.
    #expect(cached >= first.usage.input.totalTokenCount - 2, "reused \(cached) of \(total)")
    #expect(cached < total)
    #expect(first.content == "Hello there")
  }
}
