import FMTestSupport
import Foundation
@_spi(Engine) import FoundationModels
import ModelStore
import Testing

@testable import FMCommandLine

/// A chat turn on a scripted model (no weights): streaming, the token line, and recovery from
/// a full context window.
@Suite final class ChatTurnTests {
  private let directory: TemporaryDirectory
  private let out = CapturedOutput()
  private let err = CapturedOutput()

  init() throws {
    directory = try TemporaryDirectory()
  }

  deinit {
    directory.remove()
  }

  private func turn(contextSize: Int, maximumTokens: Int? = nil) -> ChatTurn {
    let model = SystemLanguageModel.scripted(
      .replying("The sea is calm today.", tokens: ["The", " sea", " is", " calm", " today", "."]),
      contextSize: contextSize)
    var settings = ChatSettings(model: "scripted")
    settings.maximumResponseTokens = maximumTokens
    let context = CommandContext(
      environment: [:], standardOutput: out.output, standardError: err.output,
      modelStore: ModelStore(directory: directory.url, source: LocalPartSource([:])))
    return ChatTurn(
      conversation: ChatConversation(settings: settings, model: model), context: context, work: InterruptibleWork(),
      showsStatus: true)
  }

  @Test func replyStreamsThenTheTokenLine() async {
    let turn = turn(contextSize: 4096)
    #expect(await turn.send("Hi") == .answered)
    #expect(out.text == "The sea is calm today.\n")
    // Into a pipe, standard output gets only the reply; the token line goes to standard error.
    #expect(err.text.hasPrefix("prompt ["))
    #expect(err.text.contains("reply [6 tokens]"))
    #expect(err.text.contains("Context Window: "))
    #expect(err.text.hasSuffix("/4096 tokens\n"))
    #expect(turn.conversation.transcript.count == 2)
  }

  /// A thinking model's thinking is shown before its answer (dimmed on a terminal), and
  /// `/set think off` reaches its template's switch.
  @Test func thinkingIsShownBeforeTheAnswer() async throws {
    let model = SystemLanguageModel(
      tokenModel: ScriptedTokenModel.replying(
        "<think>Let me see.</think>Hello there", tokens: ["<think>", "</think>", "Let", " me", " see", "Hello", " there"]),
      chatTemplate: try ChatTemplateFiles.source("Qwen-Qwen3-0.6B.jinja"))
    let context = CommandContext(
      environment: [:], standardOutput: out.output, standardError: err.output,
      modelStore: ModelStore(directory: directory.url, source: LocalPartSource([:])))
    let conversation = ChatConversation(settings: ChatSettings(model: "scripted"), model: model)
    let turn = ChatTurn(conversation: conversation, context: context, work: InterruptibleWork(), showsStatus: false)
    #expect(await turn.send("Hi") == .answered)
    #expect(out.text == "Let me see.\n\nHello there\n")
    #expect(ChatSettings(model: "x").contextOptions.reasoningLevel == nil)
    var off = ChatSettings(model: "x")
    off.think = false
    #expect(off.contextOptions.reasoningLevel == .custom("off"))
  }

  @Test func overflowIsSummarisedAndThePromptAnswered() async throws {
    let turn = turn(contextSize: 1200, maximumTokens: 20)
    let prompt = String(repeating: "Tell me about the sea. ", count: 12)
    var outcomes: [ChatTurn.Outcome] = []
    for _ in 0..<8 where !err.text.contains("context full") { outcomes.append(await turn.send(prompt)) }
    #expect(outcomes.allSatisfy { $0 == .answered }, "\(err.text)")
    #expect(err.text.contains("context full — summarised"), "\(err.text)")
    let transcript = turn.conversation.transcript
    // The summary, then the prompt that overflowed and its answer.
    #expect(transcript.count == 3)
    #expect(TranscriptText.text(of: transcript[0]).hasPrefix(ContextCompactor.summaryPrefix))
    #expect(TranscriptText.text(of: transcript[2]) == "The sea is calm today.")
  }

  @Test func summariserThatOverflowsFallsBackToTheLatestMessages() async throws {
    // The summary instructions alone do not fit this context, so summarising fails.
    let turn = turn(contextSize: 200, maximumTokens: 20)
    var outcomes: [ChatTurn.Outcome] = []
    for _ in 0..<8 where !err.text.contains("context full") { outcomes.append(await turn.send("Hi there")) }
    #expect(outcomes.allSatisfy { $0 == .answered }, "\(err.text)")
    #expect(err.text.contains("context full — kept the latest messages, dropped"), "\(err.text)")
    #expect(err.text.contains("summarising failed"))
    #expect(TranscriptText.text(of: try #require(turn.conversation.transcript.last)) == "The sea is calm today.")
  }

  @Test func compactingNothingSaysSo() async {
    let turn = turn(contextSize: 4096)
    #expect(await !turn.compact(reason: nil))
    #expect(err.text == "Nothing to summarise.\n")
  }
}
