import InferenceEngine

extension SystemLanguageModel {
  /// The prompt the local model evaluates for `request`, as text and as a token count.
  ///
  /// Package-wide for `fm serve`: its `/apply-template` returns this text, and it checks that
  /// a request fits the context before it starts. It is the executor's own rendering
  /// (`LocalEngine.prompt(for:model:tokenModel:)`), so the two cannot drift apart.
  package func renderedPrompt(for request: LanguageModelExecutorGenerationRequest) async throws -> (
    text: String, tokenCount: Int
  ) {
    let tokenModel = try await tokenModel()
    let prompt: RenderedPrompt
    do {
      prompt = try LocalEngine.prompt(for: request, model: self, tokenModel: tokenModel)
    } catch {
      throw LocalEngine.publicError(error)
    }
    return (prompt.text, tokenModel.tokenize(prompt).count)
  }
}
