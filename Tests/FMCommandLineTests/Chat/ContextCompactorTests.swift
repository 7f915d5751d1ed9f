import Foundation
import FoundationModels
import Synchronization
import Testing

@testable import FMCommandLine

@Suite struct ContextCompactorTests {
  private struct SummaryFailure: Error {}

  private static func text(_ entry: Transcript.Entry) -> String { TranscriptText.text(of: entry) }

  /// A fake token count: 10 tokens of template overhead plus one per word.
  private static let countWords: ContextCompactor.TokenCounter = { entries in
    10 + entries.map { text($0).split(separator: " ").count }.reduce(0, +)
  }

  private static func exchange(_ index: Int, words: Int = 10) -> [Transcript.Entry] {
    let filler = Array(repeating: "word", count: words - 2).joined(separator: " ")
    return [
      .prompt(Transcript.Prompt(segments: [.text(.init(content: "question \(index) \(filler)"))])),
      .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "answer \(index) \(filler)"))])),
    ]
  }

  private static let instructions = Transcript.Entry.instructions(
    Transcript.Instructions(segments: [.text(.init(content: "Be brief."))], toolDefinitions: []))

  private static func conversation(exchanges: Int) -> Transcript {
    Transcript(entries: [instructions] + (1...exchanges).flatMap { exchange($0) })
  }

  private func compactor(
    contextSize: Int = 100, summaryInputBudget: Int = 1000, summarize: @escaping ContextCompactor.Summarizer
  ) -> ContextCompactor {
    ContextCompactor(
      contextSize: contextSize, reserve: 20, summaryInputBudget: summaryInputBudget, countTokens: Self.countWords,
      summarize: summarize)
  }

  @Test func summaryReplacesTheConversationAfterTheInstructions() async throws {
    let seen = Mutex("")
    let outcome = try #require(
      try await compactor { dialogue in
        seen.withLock { $0 = dialogue }
        return "  The user asked four questions.  "
      }.compact(Self.conversation(exchanges: 4), promptTokens: 5))
    #expect(outcome.method == .summarized(messages: 8))
    #expect(outcome.transcript.count == 2)
    #expect(outcome.transcript.first == Self.instructions)
    #expect(Self.text(outcome.transcript[1]) == ContextCompactor.summaryPrefix + "The user asked four questions.")
    #expect(outcome.notice(reason: "context full") == "context full — summarised 8 messages")
    #expect(outcome.notice(reason: nil) == "summarised 8 messages")
    let dialogue = seen.withLock { $0 }
    #expect(dialogue.hasPrefix("User: question 1"))
    #expect(dialogue.contains("Assistant: answer 4"))
    #expect(!dialogue.contains("Be brief."), "the instructions stay as they are; only the conversation is summarised")
  }

  @Test func summariserReadsOnlyTheNewestMessagesThatFitItsContext() async throws {
    let seen = Mutex("")
    _ = try await compactor(summaryInputBudget: 40) { dialogue in
      seen.withLock { $0 = dialogue }
      return "summary"
    }.compact(Self.conversation(exchanges: 4))
    let dialogue = seen.withLock { $0 }
    #expect(!dialogue.contains("question 1"))
    #expect(dialogue.hasPrefix("Assistant: answer 3"))
    #expect(dialogue.contains("answer 4"))
  }

  @Test func failedSummaryFallsBackToTheLatestExchangesThatFit() async throws {
    struct Overflow: Error {}
    let outcome = try #require(
      try await compactor { _ in throw Overflow() }.compact(Self.conversation(exchanges: 4), promptTokens: 10))
    // 100 tokens - 20 reserve - 10 prompt = 70: overhead 10 + instructions 2 + three exchanges of 20 would be 72.
    #expect(outcome.method == .trimmed(dropped: 4))
    #expect(outcome.transcript.first == Self.instructions)
    #expect(outcome.transcript.dropFirst().map(Self.text) == (Self.exchange(3) + Self.exchange(4)).map(Self.text))
    #expect(outcome.summaryError is Overflow)
    #expect(outcome.notice(reason: "context full").hasPrefix("context full — kept the latest messages, dropped 4"))
  }

  @Test func summaryTooLongAlsoFallsBack() async throws {
    let long = Array(repeating: "blah", count: 200).joined(separator: " ")
    let outcome = try #require(try await compactor { _ in long }.compact(Self.conversation(exchanges: 2)))
    #expect(outcome.method == .trimmed(dropped: 0))
  }

  @Test func keptPartStartsWithAPrompt() async throws {
    var entries = Array(Self.conversation(exchanges: 3))
    entries.removeLast()  // ends with a prompt whose reply was never recorded
    let outcome = try #require(
      try await compactor(contextSize: 60) { _ in throw SummaryFailure() }.compact(Transcript(entries: entries)))
    if case .prompt? = outcome.transcript.dropFirst().first {
    } else {
      Issue.record("kept part starts with \(outcome.transcript)")
    }
  }

  @Test func stoppedSummaryTrimsNothing() async {
    await #expect(throws: CancellationError.self) {
      try await compactor { _ in throw CancellationError() }.compact(Self.conversation(exchanges: 2))
    }
  }

  @Test func nothingToCompactWithoutMessages() async throws {
    let outcome = try await compactor { _ in "x" }.compact(Transcript(entries: [Self.instructions]))
    #expect(outcome == nil)
  }
}
