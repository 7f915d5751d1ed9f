import Guardrails

/// Any language model with the guardrails of your choice: the session runs the checks of
/// `guardrails` on it, as it does on a `SystemLanguageModel` created with them, and asks `judge`
/// about the texts the classifier is unsure of.
///
/// Our addition.
///
/// The session checks every model's requests — its prompts and instructions, its tools' outputs
/// and its streamed answers — with `.default` guardrails unless the model says otherwise;
/// `SystemLanguageModel` says so with its `guardrails`, and any other model with this wrapper:
///
/// ```swift
/// let model = OpenAICompatibleLanguageModel(baseURL: url, model: "qwen")
///   .guardrails(.permissiveContentTransformations, judge: SystemLanguageModel(name: "qwen2.5-coder-0.5b"))
/// let session = LanguageModelSession(model: model)
/// ```
///
/// The requests in the classifier's uncertain band are settled by the embedding probe when its
/// model (`smollm2-135m`) is in the model store, for every model; a judge given here takes its
/// place. Without the probe's model, the local model is judged by itself (the same weights, on
/// a context of its own); another model has no judge unless it is given one here — the session
/// does not spend a provider's requests on its own checks — and texts in the uncertain band are
/// then decided by the classifier's decision threshold. The wrapper runs on the base model's
/// executor type and configuration, so it behaves as the base model in everything else.
public struct GuardrailedLanguageModel<Base: LanguageModel>: LanguageModel {
  /// The model that answers.
  public let base: Base
  /// The guardrails sessions on this model apply.
  public let guardrails: SystemLanguageModel.Guardrails
  /// The runner of the judge model, if one was given.
  let judge: ModelRunner?
  /// The judge's guard-model format, when the judge is a guard model (``GuardModel``).
  let chosenJudgeFormat: GuardModel.Format?

  /// - Parameter judge: the model that settles the texts the classifier is unsure of; nil for
  ///   the default (the embedding probe when its model is in the store, else itself for the
  ///   local model and none for others). It is asked yes or no under guided generation, but
  ///   a `SystemLanguageModel` whose name shows a guard model (`Llama-Guard-3`, `Qwen3Guard`,
  ///   `shieldgemma`, `granite-guardian`), which is asked in its own format, as ``GuardModel``.
  public init(_ base: Base, guardrails: SystemLanguageModel.Guardrails, judge: (any LanguageModel)? = nil) {
    self.base = base
    self.guardrails = guardrails
    self.judge = judge.map { ModelRunner.judging(with: $0) }
    chosenJudgeFormat = ((judge as? SystemLanguageModel)?.source.reference).flatMap(GuardModel.Format.init(modelName:))
  }

  /// `base` with `guardrails`, judged by `guardModel` in its own format.
  ///
  /// Our addition.
  public init(_ base: Base, guardrails: SystemLanguageModel.Guardrails, guardModel: GuardModel) {
    self.base = base
    self.guardrails = guardrails
    judge = ModelRunner.judging(with: guardModel.model)
    chosenJudgeFormat = guardModel.format
  }

  public var capabilities: LanguageModelCapabilities { base.capabilities }

  public var executorConfiguration: Executor.Configuration {
    Executor.Configuration(base: base.executorConfiguration)
  }

  /// The base model's executor, run with the base model.
  public struct Executor: LanguageModelExecutor {
    public typealias Model = GuardrailedLanguageModel<Base>

    /// The base executor's configuration.
    public struct Configuration: Hashable, Sendable {
      let base: Base.Executor.Configuration
    }

    private let base: Base.Executor

    public init(configuration: Configuration) throws {
      base = try Base.Executor(configuration: configuration.base)
    }

    public func prewarm(model: Model, transcript: Transcript) {
      base.prewarm(model: model.base, transcript: transcript)
    }

    public nonisolated(nonsending) func respond(
      to request: LanguageModelExecutorGenerationRequest, model: Model,
      streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
      try await base.respond(to: request, model: model.base, streamingInto: channel)
    }
  }
}

extension LanguageModel {
  /// This model with the guardrails of your choice (see ``GuardrailedLanguageModel``).
  ///
  /// Our addition.
  public func guardrails(_ guardrails: SystemLanguageModel.Guardrails, judge: (any LanguageModel)? = nil)
    -> GuardrailedLanguageModel<Self>
  {
    GuardrailedLanguageModel(self, guardrails: guardrails, judge: judge)
  }
}

/// A model that chooses its guardrails and its judge.
protocol GuardrailsConfiguring: Sendable {
  var configuredGuardrails: SystemLanguageModel.Guardrails { get }
  /// The runner that judges texts the classifier is unsure of, if any.
  func judgeRunner() -> ModelRunner?
  /// Whether the judge is one the user chose, which then takes the place of the embedding probe.
  var hasChosenJudge: Bool { get }
  /// The judge's guard-model format, when the judge is a guard model.
  var judgeFormat: GuardModel.Format? { get }
}

extension GuardrailsConfiguring {
  /// The judge of texts the classifier is unsure of: a guard model in its format, else a
  /// model asked yes or no. Its runner is made on first use (`judgeRunner`).
  func makeJudge() -> any GuardrailJudge {
    let makeRunner: @Sendable () -> ModelRunner? = { [self] in judgeRunner() }
    if let judgeFormat { return GuardModelJudge(format: judgeFormat, makeRunner: makeRunner) }
    return ModelJudge(makeRunner: makeRunner)
  }
}

extension GuardrailedLanguageModel: GuardrailsConfiguring {
  var configuredGuardrails: SystemLanguageModel.Guardrails { guardrails }

  func judgeRunner() -> ModelRunner? {
    judge ?? ModelRunner.judgeRunner(for: base)
  }

  var hasChosenJudge: Bool { judge != nil || (base as? any GuardrailsConfiguring)?.hasChosenJudge == true }

  var judgeFormat: GuardModel.Format? {
    judge != nil ? chosenJudgeFormat : (base as? any GuardrailsConfiguring)?.judgeFormat
  }
}

extension SystemLanguageModel: GuardrailsConfiguring {
  var configuredGuardrails: SystemLanguageModel.Guardrails { guardrails }
  var hasChosenJudge: Bool { false }
  var judgeFormat: GuardModel.Format? { nil }

  /// A sibling on the same weights (loaded once, shared) with a small context of its own, so
  /// judging never touches a conversation's KV cache and costs little memory.
  func judgeRunner() -> ModelRunner? {
    ModelRunner(
      SystemLanguageModel(
        source: source, useCase: .general, guardrails: guardrails, contextSize: min(contextSize, 1024),
        keepAlive: keepAlive))
  }
}
