/// Runs a ``LanguageModel``'s requests: turns a request into a stream of events on a channel.
///
/// Matches FoundationModels 27 `LanguageModelExecutor`. The session creates one executor per
/// distinct configuration and calls ``respond(to:model:streamingInto:)`` once per model
/// invocation: for a plain request once, inside a tool loop once per round. The executor
/// streams what the model produces (text, reasoning, tool calls, usage, metadata) into the
/// channel and returns when the model is done; it throws on failure, preferably a
/// ``LanguageModelError``. It never runs tools itself: the request carries only their
/// definitions.
public protocol LanguageModelExecutor: Sendable {
  /// The value executors are created from; equal configurations share an executor.
  associatedtype Configuration: Hashable, Sendable
  /// The model type this executor runs.
  associatedtype Model: LanguageModel

  /// A best-effort hint that a request with `transcript` will follow: load weights, warm a
  /// cache.
  ///
  /// Must return quickly; the default does nothing.
  func prewarm(model: Self.Model, transcript: Transcript)

  /// Creates an executor; may fail (missing weights, a bad credential).
  init(configuration: Self.Configuration) throws

  /// One model invocation: streams the answer to `request` into `channel` and returns when the
  /// model is done.
  ///
  /// Runs on the caller's actor; long CPU-bound work belongs on another executor (the local
  /// model runs llama.cpp on its own threads).
  nonisolated(nonsending) func respond(
    to request: LanguageModelExecutorGenerationRequest, model: Self.Model,
    streamingInto channel: LanguageModelExecutorGenerationChannel
  ) async throws
}

extension LanguageModelExecutor {
  /// Does nothing.
  ///
  /// Matches FoundationModels 27's default `LanguageModelExecutor.prewarm(model:transcript:)`.
  public func prewarm(model: Self.Model, transcript: Transcript) {}
}
