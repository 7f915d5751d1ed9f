/// The stream of events an executor sends while it answers one request, and the session reads.
///
/// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel`. Executors only
/// ``send(_:)``; the session iterates. The session ends the iteration when the executor's
/// `respond` returns (or rethrows its error), so a channel made with ``init()`` by a test or a
/// middleware must be ended by whoever drives the executor: the framework's own session does it.
/// Sending never waits: events are buffered until the session reads them.
public struct LanguageModelExecutorGenerationChannel: AsyncSequence, Sendable {
  public typealias Element = any LanguageModelExecutorGenerationChannel.Event
  public typealias Failure = any Error

  private let stream: AsyncThrowingStream<any Event, any Error>
  private let continuation: AsyncThrowingStream<any Event, any Error>.Continuation

  /// Creates an empty channel.
  public init() {
    (stream, continuation) = AsyncThrowingStream.makeStream(of: (any Event).self)
  }

  /// Sends one event to the session.
  public nonisolated(nonsending) func send(_ event: some Event) async {
    continuation.yield(event)
  }

  /// Ends the iteration, after the events already sent (with `error`, when the executor threw).
  ///
  /// Package-wide for `fm serve`, which drives the local model's executor itself.
  package func finish(throwing error: (any Error)? = nil) {
    continuation.finish(throwing: error)
  }

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator())
  }

  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.AsyncIterator`.
  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncThrowingStream<any Event, any Error>.AsyncIterator

    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> (any Event)? {
      try await base.next(isolation: actor)
    }

    public mutating func next() async throws -> (any Event)? {
      try await base.next(isolation: nil)
    }
  }

  /// One thing an executor reports: a ``Response``, ``Reasoning`` or ``ToolCalls`` event.
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.Event`. Only the
  /// framework's three event types exist (``EventKind`` cannot be made outside it).
  public protocol Event: Sendable {
    var kind: EventKind { get }
  }

  /// Which of the three events an event is.
  ///
  /// Matches FoundationModels 27 `LanguageModelExecutorGenerationChannel.EventKind` (opaque).
  public struct EventKind: Sendable {
    enum Value: Sendable { case response, reasoning, toolCalls }
    let value: Value
  }
}
