import InferenceEngine

/// What a session asks of a model: shaped like Apple's iOS 27 `LanguageModel` /
/// `LanguageModelExecutor` split. A provider opens one executor per session; the executor
/// keeps the session's state (for the local provider, its KV cache) between requests.
protocol LanguageModelProvider: Sendable {
  /// Opens the executor of one session.
  func makeExecutor() -> any LanguageModelExecutor
}

/// Runs one session's requests, one at a time.
protocol LanguageModelExecutor: Sendable {
  /// Streams the reply to the last prompt of `request.transcript`.
  func respond(to request: ProviderRequest) -> AsyncThrowingStream<ProviderEvent, any Error>
  /// Loads the model and evaluates the transcript (and an optional prompt prefix) ahead of time.
  func prewarm(transcript: Transcript, promptPrefix: Prompt?) async throws
  /// The tokens `entries` cost when fed to the model.
  func tokenCount(of entries: [Transcript.Entry]) async throws -> Int
}

/// One request: the transcript with the new prompt last, and how to answer it.
struct ProviderRequest: Sendable {
  var transcript: Transcript
  var options: GenerationOptions
  /// The structure the answer must have, or nil for free text.
  var schema: GenerationSchema?
  /// Whether the schema is described in the prompt text (it constrains decoding either way).
  var includeSchemaInPrompt: Bool
}

/// What an executor reports while answering.
enum ProviderEvent: Sendable {
  /// More text of the answer (for structured answers, more JSON).
  case text(String)
  /// The answer is complete.
  case finished(LanguageModelSession.Usage)
}
