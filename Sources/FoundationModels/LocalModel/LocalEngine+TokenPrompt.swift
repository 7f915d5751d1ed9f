import InferenceEngine

extension LocalEngine {
  /// Generates `request`, a prompt of tokens as given, on this engine's session: the request
  /// a chat turn's tokens would make, without the chat template, its constraints or its
  /// output's readers.
  ///
  /// Why a path of its own: a plain text completion evaluates text the model continues as it
  /// is, and reports the engine's events (log probabilities among them) as they come.
  /// - Throws: the framework's errors (`publicError`), `CancellationError` when cancelled, and
  ///   `onEvent`'s.
  func generate(
    _ request: GenerationRequest, model: SystemLanguageModel,
    onEvent: (GenerationEvent) async throws -> ModelInvocation.Next
  ) async throws {
    do {
      let session = try await inference(for: model)
      var finished = false
      for try await event in session.generate(request) {
        if case .finished = event { finished = true }
        if try await onEvent(event) == .stop { return }
      }
      // The stream ends without a summary only when the request was cancelled.
      guard finished else { throw CancellationError() }
    } catch {
      throw Self.publicError(error)
    }
  }
}
