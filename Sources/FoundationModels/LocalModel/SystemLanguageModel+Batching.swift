import Foundation
import InferenceEngine
import Synchronization

extension SystemLanguageModel {
  /// This model with sessions that share one llama.cpp context of `slots` sequences, decoded
  /// together (continuous batching; see `BatchedModel`): the switch `fm serve` uses, so that
  /// concurrent requests cost far less than one context each.
  ///
  /// Package-level, not Apple's API.
  ///
  /// Sessions on it behave as on this model, except that batched logits may differ from a
  /// lone sequence's in the last bits, and that a request waits for a free slot when all
  /// `slots` run one. Each slot holds `contextSize` tokens: the shared cache costs `slots`
  /// times one session's, from the first session on, and keeps the weights loaded while this
  /// model object lives (its keep-alive does not apply).
  /// - Parameters:
  ///   - queue: the most requests that wait for a slot; a request that would wait behind that
  ///     many fails at once with `LanguageModelError.rateLimited`, before the model writes
  ///     anything. Nil: requests always wait.
  ///   - tokenBudget: the most tokens of one decode, all slots together: running sequences'
  ///     next tokens first, then chunks of waiting prompts.
  ///   - threads: threads for the shared decodes.
  ///   - savedCacheBytes: host memory that keeps the caches of slots taken for other
  ///     conversations (`BatchingConfiguration.savedCacheBytes`).
  package func batched(
    slots: Int, queue: Int? = nil, tokenBudget: Int = 512, threads: Int = CPUTopology.physicalCores,
    savedCacheBytes: Int = BatchingConfiguration.defaultSavedCacheBytes
  ) -> SystemLanguageModel {
    SystemLanguageModel(
      source: source, useCase: useCase, guardrails: guardrails, contextSize: contextSize, keepAlive: keepAlive,
      batching: BatchingConfiguration(
        slots: slots, context: ContextConfiguration(contextSize: contextSize, batchSize: tokenBudget, threads: threads),
        queueLimit: queue, savedCacheBytes: savedCacheBytes), chatTemplate: chatTemplateSource,
      speculation: speculation, draftModel: draftModel)
  }

  /// The batched model once a session made it (for a server's metrics: slots in use, requests
  /// waiting, decodes run), or nil.
  package var batchedModel: BatchedModel? { batchedModels.current }

  /// Loads the weights and makes the batched model now, as the first session would, so that
  /// the first request waits for neither; the batched model keeps the weights loaded while
  /// this model object lives. A model without batching is only loaded (it stays for its
  /// keep-alive).
  ///
  /// Why: a lease taken only to load would end at once, and with it the weights (the batched
  /// model's keep-alive does not apply), so the first request would load them again.
  /// - Throws: `SystemLanguageModel.Error.assetsUnavailable` as a session would.
  package func loadForBatching() async throws {
    let (tokenModel, lease) = try await leasedModel()
    _ = try sessionModel(over: tokenModel, lease: lease)
  }

  /// The model sessions run on: `tokenModel` itself, or on a batched model the shared
  /// `BatchedModel` over it, made the first time.
  /// - Throws: `SystemLanguageModel.Error.assetsUnavailable` when the batched context cannot
  ///   be made (its configuration, memory) or the model is not a llama.cpp model.
  func sessionModel(over tokenModel: any TokenModel, lease: ModelLease?) throws -> any TokenModel {
    guard let batching else { return tokenModel }
    guard let llama = tokenModel as? LlamaModel else {
      throw SystemLanguageModel.Error.assetsUnavailable(
        .init(debugDescription: "batched sessions need a llama.cpp model, not \(source.displayName)"))
    }
    do {
      return try batchedModels.model(over: llama, configuration: batching, lease: lease)
    } catch let error as EngineError {
      throw SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: error.message))
    }
  }
}

/// The `BatchedModel` of a batched `SystemLanguageModel`, made once, with the lease that
/// keeps its weights loaded.
final class BatchedModelHolder: Sendable {
  private struct Made: Sendable {
    var model: BatchedModel
    var lease: ModelLease?
  }

  private let made = Mutex<Made?>(nil)

  var current: BatchedModel? { made.withLock { $0?.model } }

  /// The batched model, made over `model` the first time.
  func model(over model: LlamaModel, configuration: BatchingConfiguration, lease: ModelLease?) throws -> BatchedModel {
    try made.withLock { made in
      if let made, made.model.model === model { return made.model }
      let created = try BatchedModel(model: model, configuration: configuration)
      made = Made(model: created, lease: lease)
      return created
    }
  }
}
