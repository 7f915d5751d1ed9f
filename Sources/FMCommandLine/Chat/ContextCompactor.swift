import Foundation
import FoundationModels

/// Frees the context window of a chat, the book's way: summarise the conversation in a second
/// session and start over from the instructions plus the summary; when that fails (the
/// summarising session overflows too, or the summary is still too long), keep only the latest
/// messages that fit.
///
/// The model is reached through two closures, so the recovery logic is tested without one.
struct ContextCompactor: Sendable {
  /// Counts the tokens `entries` take in the context (`SystemLanguageModel.tokenCount(for:)`).
  typealias TokenCounter = @Sendable ([Transcript.Entry]) async throws -> Int
  /// Summarises a dialogue in a fresh session.
  typealias Summarizer = @Sendable (String) async throws -> String

  /// The model's context window.
  let contextSize: Int
  /// Tokens kept free for the next prompt and its reply.
  let reserve: Int
  /// The most tokens of dialogue the summarising session can read.
  let summaryInputBudget: Int
  let countTokens: TokenCounter
  let summarize: Summarizer

  /// What compaction did.
  struct Outcome: Sendable {
    enum Method: Equatable, Sendable {
      /// The conversation's `messages` entries became one summary.
      case summarized(messages: Int)
      /// The oldest `dropped` entries were left out; `summaryError` says why summarising failed.
      case trimmed(dropped: Int)
    }

    var transcript: Transcript
    var method: Method
    /// Why summarising failed, when it did.
    var summaryError: (any Error)?

    /// The notice the chat prints, such as "context full — summarised 14 messages"; without a
    /// reason (`/summarize`), just what was done.
    func notice(reason: String?) -> String {
      let done: String
      switch method {
      case .summarized(let messages):
        done = "summarised \(ChatStatusLine.count(messages, "message"))"
      case .trimmed(let dropped):
        let why = summaryError.map { " (summarising failed: \(ChatErrorText.describe($0)))" } ?? ""
        done = "kept the latest messages, dropped \(dropped)\(why)"
      }
      return reason.map { "\($0) — \(done)" } ?? done
    }
  }

  /// A summary that cannot replace the conversation.
  struct SummaryRejected: Error, LocalizedError {
    let reason: String
    var errorDescription: String? { reason }
  }

  /// The text put before a summary in the new transcript, so the model reads it as memory.
  static let summaryPrefix = "Summary of our conversation so far:\n"

  /// Instructions of the summarising session.
  static let summaryInstructions = """
    You are given a conversation between a user and an assistant. Summarize it as memory for \
    the assistant: list each request of the user with a short summary of the assistant's answer, \
    and keep names, numbers and decisions. Be brief. Do not add anything that is not in the conversation.
    """

  /// Compacts `transcript` so that it and `promptTokens` more fit with `reserve` to spare.
  /// - Returns: nil when there is nothing to compact (no messages besides the instructions).
  /// - Throws: `CancellationError` when the summary was stopped (Ctrl+C): the user asked to
  ///   stop, so nothing is trimmed either.
  func compact(_ transcript: Transcript, promptTokens: Int = 0) async throws -> Outcome? {
    let instructions = Array(transcript.prefix { if case .instructions = $0 { true } else { false } })
    let conversation = Array(transcript.dropFirst(instructions.count))
    guard !conversation.isEmpty else { return nil }
    let budget = contextSize - reserve - promptTokens
    var summaryError: (any Error)?
    do {
      let summary = try await summarizedTranscript(instructions, conversation)
      if try await countTokens(Array(summary)) <= budget {
        return Outcome(transcript: summary, method: .summarized(messages: conversation.count))
      }
      summaryError = SummaryRejected(reason: "the summary was too long")
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      summaryError = error
    }
    let kept = await latestEntries(of: conversation, fitting: budget, after: instructions)
    return Outcome(
      transcript: Transcript(entries: instructions + kept), method: .trimmed(dropped: conversation.count - kept.count),
      summaryError: summaryError)
  }

  /// The instructions plus one entry with the summary of `conversation`.
  private func summarizedTranscript(_ instructions: [Transcript.Entry], _ conversation: [Transcript.Entry])
    async throws -> Transcript
  {
    // The summariser has its own context window; the oldest messages that do not fit are left
    // out of its input rather than failing outright.
    var input = conversation[...]
    while input.count > 1, try await countTokens(Array(input)) > summaryInputBudget { input = input.dropFirst() }
    let summary = try await summarize(TranscriptText.dialogue(input)).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !summary.isEmpty else { throw SummaryRejected(reason: "the summary was empty") }
    let entry = Transcript.Entry.response(
      Transcript.Response(
        assetIDs: [], segments: [.text(Transcript.TextSegment(content: Self.summaryPrefix + summary))]))
    return Transcript(entries: instructions + [entry])
  }

  /// The longest tail of `conversation` that fits `budget` with the instructions, starting at a
  /// prompt so the kept part reads as whole exchanges.
  private func latestEntries(
    of conversation: [Transcript.Entry], fitting budget: Int, after instructions: [Transcript.Entry]
  )
    async -> [Transcript.Entry]
  {
    var start = 0
    while start < conversation.count {
      let candidate = Array(conversation[start...])
      let startsWithPrompt = if case .prompt = candidate[0] { true } else { false }
      if startsWithPrompt, let tokens = try? await countTokens(instructions + candidate), tokens <= budget {
        return candidate
      }
      start += 1
    }
    return []
  }
}
