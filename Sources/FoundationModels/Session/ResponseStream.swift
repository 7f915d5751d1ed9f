import Foundation
import Synchronization

extension LanguageModelSession {
  /// Matches FoundationModels `LanguageModelSession.ResponseStream`: an async sequence of
  /// cumulative snapshots of the answer being generated.
  ///
  /// The turn starts when the stream is created. Cancelling the task that iterates it (or
  /// dropping every copy of it) cancels the turn, leaving the transcript as it was.
  public struct ResponseStream<Content>: Sendable where Content: Generable {
    /// Matches FoundationModels `LanguageModelSession.ResponseStream.Snapshot`.
    public struct Snapshot {
      /// The answer so far, with the properties generated so far.
      public var content: Content.PartiallyGenerated
      /// The answer so far as generated content.
      public var rawContent: GeneratedContent
      /// The entries of the turn so far: the prompt, then what the model has produced (27).
      public var transcriptEntries: ArraySlice<Transcript.Entry>
      /// The turn's tokens so far (27).
      public var usage: LanguageModelSession.Usage
    }

    /// What the turn's task hands to the consumer. Each value is created by the task and then
    /// only read by the consumer, so passing it across is safe even for non-`Sendable` content.
    enum Event: @unchecked Sendable {
      case snapshot(Snapshot)
      case completed(Response<Content>)
    }

    private let events: AsyncThrowingStream<Event, any Swift.Error>
    private let outcome: TurnOutcome<Content>

    init(events: AsyncThrowingStream<Event, any Swift.Error>, outcome: TurnOutcome<Content>) {
      self.events = events
      self.outcome = outcome
    }

    /// Matches FoundationModels `ResponseStream.collect()`: waits for the end of the turn and
    /// returns its response (after any snapshots already consumed).
    ///
    /// Runs on the caller's actor, as Apple's does; the generation itself runs on the engine's
    /// own threads, so a main-actor caller only wakes for the snapshots.
    nonisolated(nonsending) public func collect() async throws -> sending Response<Content> {
      var iterator = makeAsyncIterator()
      while try await iterator.next(isolation: #isolation) != nil {}
      if let response = outcome.response { return response }
      try Task.checkCancellation()
      throw CancellationError()
    }
  }
}

extension LanguageModelSession.ResponseStream: AsyncSequence {
  public typealias Element = Snapshot
  public typealias Failure = any Swift.Error

  /// Matches FoundationModels `ResponseStream.AsyncIterator`.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<Event, any Swift.Error>.AsyncIterator
    let outcome: TurnOutcome<Content>

    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Snapshot? {
      do {
        while let event = try await base.next(isolation: actor) {
          switch event {
          case .snapshot(let snapshot): return snapshot
          case .completed(let response): outcome.response = response
          }
        }
      } catch {
        await outcome.turnEnded()
        throw error
      }
      await outcome.turnEnded()
      return nil
    }

    public mutating func next() async throws -> Snapshot? {
      try await next(isolation: nil)
    }
  }

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: events.makeAsyncIterator(), outcome: outcome)
  }
}

/// The final response of a turn, kept where every copy of its stream can find it, and the
/// turn's task.
final class TurnOutcome<Content: Generable>: @unchecked Sendable {
  // Written once by the consumer's iterator and read after it; the mutex orders the two (the
  // response itself is only ever used by one task at a time, hence the unchecked Sendable).
  private let stored = Mutex<UncheckedResponse?>(nil)
  private let turnTask = Mutex<Task<Void, Never>?>(nil)

  /// The task that runs the turn, set when it starts.
  var task: Task<Void, Never>? {
    get { turnTask.withLock { $0 } }
    set { turnTask.withLock { $0 = newValue } }
  }

  /// Waits until the turn's task has ended, once its stream has: the task holds the session
  /// (and through it the engine's context) until then, a moment after its last event. Why:
  /// an app that lets the session go when `respond` returns and opens the next one at once
  /// must find the context back with the model, its cache there for the next session to reuse.
  /// A consumer that was cancelled does not wait.
  func turnEnded() async {
    guard !Task.isCancelled else { return }
    await task?.value
  }

  private struct UncheckedResponse: @unchecked Sendable {
    let response: LanguageModelSession.Response<Content>
  }

  var response: LanguageModelSession.Response<Content>? {
    get { stored.withLock { $0?.response } }
    set { stored.withLock { $0 = newValue.map(UncheckedResponse.init) } }
  }
}

extension LanguageModelSession.ResponseStream.Snapshot: Sendable where Content.PartiallyGenerated: Sendable {}
