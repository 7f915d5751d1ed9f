import Foundation
import InferenceEngine
import ModelStore

/// The on-device language model: on Linux, a local GGUF model run by llama.cpp.
///
/// Matches FoundationModels `SystemLanguageModel`. `default` is the default chat model of the
/// model cache (`qwen2.5-coder-1.5b`, or the name in `FM_MODEL`); `init(name:…)` and
/// `init(path:…)` are our additions for choosing another model. The weights are loaded on first
/// use (a request, `prewarm`, or `tokenCount`) and shared by every session on the same file.
public final class SystemLanguageModel: Sendable {
  /// Matches FoundationModels `SystemLanguageModel.default`: the base model, general use case.
  public static let `default` = SystemLanguageModel()

  /// Matches FoundationModels `SystemLanguageModel.useCase` (set at creation).
  public let useCase: UseCase
  /// The guardrails sessions on this model apply: `.default` checks prompts, instructions,
  /// tool outputs and the streamed answer, and fails with `guardrailViolation`;
  /// `.permissiveContentTransformations` runs no check on `String` requests (others are
  /// checked as by default).
  ///
  /// Texts the classifier is unsure of are judged by this model itself.
  public let guardrails: Guardrails
  /// Matches FoundationModels `SystemLanguageModel.contextSize`: the tokens one session holds,
  /// instructions, prompts and responses together. 4096 by default, as on Apple's devices.
  public let contextSize: Int
  /// How long the loaded model stays in memory after the last session on it ends.
  ///
  /// Our addition.
  public let keepAlive: KeepAlive
  let source: ModelSource
  /// The Jinja chat template given in place of the model file's own, if any.
  let chatTemplateSource: String?
  /// The template sessions render with, parsed once (`chatTemplate(for:)`).
  let parsedTemplate = ParsedTemplateHolder()
  /// Whether sessions on this model guess tokens ahead for the model to confirm (speculative
  /// decoding): `.lookup` by default, `.draft` where a draft model is given.
  ///
  /// Our addition.
  public let speculation: Speculation
  /// The draft model's name or path, for `Speculation.draft`.
  ///
  /// Our addition.
  public let draftModel: String?
  /// When set, sessions share one batched context (see `batched(slots:queue:tokenBudget:threads:)`).
  let batching: BatchingConfiguration?
  /// The batched model, made by the first session when `batching` is set.
  let batchedModels = BatchedModelHolder()

  /// Matches FoundationModels `SystemLanguageModel.init(useCase:guardrails:)`, on the default model.
  public convenience init(useCase: UseCase = .general, guardrails: Guardrails = Guardrails.default) {
    self.init(source: .default, useCase: useCase, guardrails: guardrails, contextSize: nil)
  }

  /// The default model, kept in memory for `keepAlive` after its last session ends.
  ///
  /// Our addition.
  public convenience init(keepAlive: KeepAlive, useCase: UseCase = .general, guardrails: Guardrails = .default) {
    self.init(source: .default, useCase: useCase, guardrails: guardrails, contextSize: nil, keepAlive: keepAlive)
  }

  /// A model from the model cache by name (`smollm2-135m`, `qwen2.5-coder-0.5b`,
  /// `qwen2.5-coder-1.5b`) or a path to a GGUF file.
  ///
  /// Our addition.
  ///
  /// - Parameters:
  ///   - contextSize: tokens per session; nil means 4096. Larger values work up to the model's
  ///     trained context; a request beyond that fails with `assetsUnavailable`.
  ///   - keepAlive: how long the model stays loaded after its last session ends.
  ///   - chatTemplate: a Jinja chat template (the text of a `.jinja` file, as llama-server's
  ///     `--chat-template-file` reads) to render conversations with instead of the one in the
  ///     model's file; needed for a model without one (a base model).
  ///   - speculation: whether sessions guess tokens ahead (`Speculation`); nil means `.draft`
  ///     with a `draftModel`, else `.lookup`.
  ///   - draftModel: a smaller model with the same vocabulary (a name or a GGUF path, as
  ///     `name`) that guesses for this one (`Speculation.draft`): `qwen2.5-coder-0.5b` for
  ///     `qwen2.5-coder-1.5b`. A first request fails with `assetsUnavailable` when its
  ///     vocabulary differs, or when `speculation` is not `.draft`.
  public convenience init(
    name: String, contextSize: Int? = nil, keepAlive: KeepAlive = .default, useCase: UseCase = .general,
    guardrails: Guardrails = .default, chatTemplate: String? = nil, speculation: Speculation? = nil,
    draftModel: String? = nil
  ) {
    self.init(
      source: .reference(name), useCase: useCase, guardrails: guardrails, contextSize: contextSize,
      keepAlive: keepAlive, chatTemplate: chatTemplate,
      speculation: speculation ?? (draftModel == nil ? .lookup : .draft), draftModel: draftModel)
  }

  /// A model from a GGUF file.
  ///
  /// Our addition. The other parameters are as for `init(name:…)`.
  public convenience init(
    path: URL, contextSize: Int? = nil, keepAlive: KeepAlive = .default, useCase: UseCase = .general,
    guardrails: Guardrails = .default, chatTemplate: String? = nil, speculation: Speculation? = nil,
    draftModel: String? = nil
  ) {
    self.init(
      source: .reference(path.path), useCase: useCase, guardrails: guardrails, contextSize: contextSize,
      keepAlive: keepAlive, chatTemplate: chatTemplate,
      speculation: speculation ?? (draftModel == nil ? .lookup : .draft), draftModel: draftModel)
  }

  /// A model over an engine-level token model; for tests (scripted models) and embedding.
  @_spi(Engine)
  public convenience init(
    tokenModel: any TokenModel, contextSize: Int? = nil, useCase: UseCase = .general, guardrails: Guardrails = .default,
    chatTemplate: String? = nil
  ) {
    self.init(
      source: .loaded(tokenModel), useCase: useCase, guardrails: guardrails, contextSize: contextSize,
      chatTemplate: chatTemplate)
  }

  init(
    source: ModelSource, useCase: UseCase, guardrails: Guardrails, contextSize: Int?, keepAlive: KeepAlive = .default,
    batching: BatchingConfiguration? = nil, chatTemplate: String? = nil, speculation: Speculation = .lookup,
    draftModel: String? = nil
  ) {
    self.source = source
    self.speculation = speculation
    self.draftModel = draftModel
    self.chatTemplateSource = chatTemplate
    self.batching = batching
    self.keepAlive = keepAlive
    self.useCase = useCase
    self.guardrails = guardrails
    self.contextSize = contextSize ?? 4096
  }

  /// Matches FoundationModels `SystemLanguageModel.availability`.
  ///
  /// Unavailable with `.modelNotReady` while the model file is not in the cache (fetch it with `fm
  /// models pull`).
  public var availability: Availability {
    source.isPresent ? .available : .unavailable(.modelNotReady)
  }

  /// Matches FoundationModels `SystemLanguageModel.isAvailable`.
  public var isAvailable: Bool { availability == .available }

  /// The loaded engine model, loading it on first use.
  ///
  /// The model stays loaded while the caller holds it, and for `keepAlive` after.
  @_spi(Engine)
  public func tokenModel() async throws -> any TokenModel {
    try await leasedModel().model
  }

  /// The loaded engine model and the lease that keeps it loaded (nil for in-memory models).
  /// - Throws: `SystemLanguageModel.Error.assetsUnavailable` when the model cannot be found or loaded.
  func leasedModel() async throws -> (model: any TokenModel, lease: ModelLease?) {
    try await lease(source)
  }

  /// `source` loaded with this model's keep-alive; a failure is `assetsUnavailable` with its
  /// message after `prefix`.
  private func lease(_ source: ModelSource, prefix: String = "") async throws -> (
    model: any TokenModel, lease: ModelLease?
  ) {
    do {
      return try await source.load(keepAlive: keepAlive.engineValue)
    } catch let error as ModelStoreError {
      throw SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: prefix + error.message))
    } catch let error as EngineError {
      throw SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: prefix + error.message))
    }
  }

  /// The loaded draft model and its lease, for `Speculation.draft`; nil for other speculation.
  /// - Throws: `SystemLanguageModel.Error.assetsUnavailable` when the draft model cannot be
  ///   loaded, or is missing with `.draft` or given without it.
  func leasedDraftModel() async throws -> (model: any TokenModel, lease: ModelLease?)? {
    switch (speculation, draftModel) {
    case (.draft, nil):
      throw SystemLanguageModel.Error.assetsUnavailable(
        .init(debugDescription: "speculation .draft needs a draft model (draftModel:, fm's --draft-model)"))
    case (.draft, let name?):
      return try await lease(.reference(name), prefix: "draft model: ")
    case (_, let name?):
      throw SystemLanguageModel.Error.assetsUnavailable(
        .init(
          debugDescription: "the draft model \(name) is used by speculation .draft only, not .\(speculation.rawValue)"))
    case (_, nil):
      return nil
    }
  }

  /// The engine settings of a session on this model: on a batched one, the shared decodes'
  /// budget and threads, with this model's context size.
  var contextConfiguration: ContextConfiguration {
    guard let shared = batching?.context else { return ContextConfiguration(contextSize: contextSize) }
    return ContextConfiguration(contextSize: contextSize, batchSize: shared.batchSize, threads: shared.threads)
  }
}
