import Foundation
@_spi(Engine) import FoundationModels
import InferenceEngine

/// The model `fm serve` serves, and the one place where the server makes what answers a
/// request: every chat completion runs on an executor from `makeExecutor()`.
///
/// Why one place: the executor is what a request's generation runs on; `fm serve` gives it a
/// batched model (`SystemLanguageModel.batched(slots:)`), so each request's executor takes a
/// sequence of one shared context, and another engine arrangement is a change here only.
public final class ServedModel: Sendable {
  /// The id clients name in `model` and `/v1/models` lists.
  public let id: String
  let model: SystemLanguageModel

  public init(id: String, model: SystemLanguageModel) {
    self.id = id
    self.model = model
  }

  /// Tokens one request holds: prompt and answer together.
  var contextSize: Int { model.contextSize }

  /// An executor for one request.
  func makeExecutor() -> SystemLanguageModel.Executor {
    SystemLanguageModel.Executor(configuration: model.executorConfiguration)
  }

  /// The prompt text the executor evaluates for `request`, and its tokens.
  func renderedPrompt(for request: LanguageModelExecutorGenerationRequest) async throws -> (
    text: String, tokenCount: Int
  ) {
    try await model.renderedPrompt(for: request)
  }

  /// The loaded model's tokenizer, loading the model on first use.
  func tokenModel() async throws -> any TokenModel {
    try await model.tokenModel()
  }

  /// What the batched model's decodes have done so far (nothing before the first request).
  var batchStatistics: BatchStatistics { model.batchedModel?.statistics ?? BatchStatistics() }

  /// Loads the weights now, so the first request does not wait for them.
  public func load() async throws {
    _ = try await model.tokenModel()
  }
}
