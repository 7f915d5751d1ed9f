import Foundation
import Synchronization
import Testing

@testable import FoundationModels

/// The end of a response stream is the end of its turn.
@Suite struct ResponseStreamTests {
  /// `collect()` (and so `respond`) returns once the turn's task has ended, not only its
  /// stream: the task holds the session, and through it the engine's context, a moment after
  /// its last event, and an app that lets the session go and opens the next one at once must
  /// find that context back with the model. Here the task goes on 200 ms after its last event.
  @Test func theStreamEndsWhenTheTurnsTaskHasEnded() async throws {
    let (events, continuation) = AsyncThrowingStream.makeStream(
      of: LanguageModelSession.ResponseStream<String>.Event.self)
    let outcome = TurnOutcome<String>()
    let ended = Mutex(false)
    let usage = LanguageModelSession.Usage(
      input: .init(totalTokenCount: 1, cachedTokenCount: 0), output: .init(totalTokenCount: 1, reasoningTokenCount: 0))
    outcome.task = Task {
      let response = LanguageModelSession.Response(
        content: "done", rawContent: GeneratedContent("done"), transcriptEntries: [], usage: usage)
      continuation.yield(.completed(response))
      continuation.finish()
      try? await Task.sleep(for: .milliseconds(200))
      ended.withLock { $0 = true }
    }
    let stream = LanguageModelSession.ResponseStream(events: events, outcome: outcome)
    let response = try await stream.collect()
    #expect(response.content == "done")
    #expect(ended.withLock { $0 })
  }
}
