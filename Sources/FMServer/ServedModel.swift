import Foundation
@_spi(Engine) import FoundationModels
import InferenceEngine

/// The model `fm serve` serves, and the one place where the server makes what answers a
/// request: every chat completion runs on an executor from `makeExecutor()`.
///
/// Why one place: the executor is what a request's generation runs on; the served model is
/// the given one batched (`SystemLanguageModel.batched(slots:queue:)`), so each request's
/// executor takes a sequence of one shared context, and another engine arrangement is a
/// change here only. The batched model's slot pool is the server's one admission point: a
/// request runs on a free slot, waits in the queue for one, or is refused when the queue is
/// full (`LanguageModelError.rateLimited`, which the server answers with 503).
public final class ServedModel: Sendable {
  /// The id clients name in `model` and `/v1/models` lists.
  public let id: String
  let model: SystemLanguageModel
  /// Requests that generate at once (`--parallel`).
  let slots: Int
  /// Requests that may wait for a slot (`--queue`); past them, a request is refused.
  let queueLimit: Int

  /// The checks its requests run (`--guardrails`), if any.
  let guardrails: RequestGuardrails?

  /// Serves `model` with `slots` sequences of one shared context and a queue of `queue`.
  /// - Parameters:
  ///   - savedCacheBytes: host memory for the caches of slots lent to other conversations.
  ///   - guardrails: the guardrails requests are checked with, as a session on the model
  ///     checks its turns; nil checks nothing.
  public init(
    id: String, model: SystemLanguageModel, slots: Int, queue: Int,
    savedCacheBytes: Int = BatchingConfiguration.defaultSavedCacheBytes,
    guardrails: SystemLanguageModel.Guardrails? = nil
  ) {
    self.id = id
    self.slots = slots
    queueLimit = queue
    let batched = model.batched(slots: slots, queue: queue, savedCacheBytes: savedCacheBytes)
    self.model = batched
    self.guardrails = guardrails.map { RequestGuardrails(model: batched, mode: $0) }
  }

  /// Tokens one request holds: prompt and answer together.
  var contextSize: Int { model.contextSize }

  /// An executor for one request.
  func makeExecutor() -> SystemLanguageModel.Executor {
    SystemLanguageModel.Executor(configuration: model.executorConfiguration)
  }

  /// Generates `request`, a prompt of tokens as given (a text completion's), on an executor
  /// from `makeExecutor()`, calling `onEvent` with each event until it returns `.stop`.
  func generate(
    _ request: GenerationRequest, onEvent: (GenerationEvent) async throws -> ModelInvocation.Next
  ) async throws {
    try await makeExecutor().generate(request, model: model, onEvent: onEvent)
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

  /// Slots generating now and requests waiting for one, as the slot pool counts them (none
  /// before the first request).
  var slotUsage: (busy: Int, waiting: Int) {
    guard let batched = model.batchedModel else { return (0, 0) }
    return (batched.busySlots, batched.waitingRequests)
  }

  /// Loads the weights and makes the shared context now, so the first request waits for
  /// neither; both stay while this served model lives.
  public func load() async throws {
    try await model.loadForBatching()
  }
}
