import Guardrails
import Synchronization

/// A session's model behind the public provider protocol, its type erased: every model — the
/// local one included — is reached only through `LanguageModelExecutor`.
///
/// The executor is created on the first request (its `init(configuration:)` may throw, and
/// that error belongs to a request, not to the session's creation) and kept for the session,
/// so an executor that holds per-conversation state (the local model's KV cache) serves one
/// session's turns.
struct ModelRunner: Sendable {
  /// Which model this is: its type and executor configuration. Two values with the same key
  /// share an executor in a session.
  struct Key: Hashable, @unchecked Sendable {
    let type: ObjectIdentifier
    // `LanguageModelExecutor.Configuration` is `Hashable & Sendable`; `AnyHashable` hides that.
    let configuration: AnyHashable
  }

  let key: Key
  let capabilities: LanguageModelCapabilities
  /// The guardrails the session applies on this model: the model's own choice
  /// (`SystemLanguageModel.guardrails`, ``GuardrailedLanguageModel``), else `.default`.
  let guardrails: SystemLanguageModel.Guardrails
  /// Judges texts the guardrail classifier is unsure of (see ``GuardrailedLanguageModel``).
  let judge: (any GuardrailJudge)?
  /// Whether the model was given a judge of the user's choice (``GuardrailedLanguageModel``),
  /// which then settles the uncertain band instead of the embedding probe.
  let hasChosenJudge: Bool
  /// The way to invoke this model: its executor, created on the first invocation.
  let invocation: ModelInvocation
  private let prewarmBody: @Sendable (Transcript) -> Void

  init<Model: LanguageModel>(_ model: Model) {
    key = Key(type: ObjectIdentifier(Model.self), configuration: AnyHashable(model.executorConfiguration))
    capabilities = model.capabilities
    guardrails = (model as? any GuardrailsConfiguring)?.configuredGuardrails ?? .default
    judge = (model as? any GuardrailsConfiguring)?.makeJudge()
    hasChosenJudge = (model as? any GuardrailsConfiguring)?.hasChosenJudge ?? false
    let executor = LazyExecutor<Model.Executor>(configuration: model.executorConfiguration)
    invocation = ModelInvocation { request, channel in
      try await executor.get().respond(to: request, model: model, streamingInto: channel)
    }
    prewarmBody = { transcript in
      try? executor.get().prewarm(model: model, transcript: transcript)
    }
  }

  func prewarm(_ transcript: Transcript) {
    prewarmBody(transcript)
  }

  /// The runner that judges for `model`: the model's choice (the local model's sibling, a
  /// wrapper's judge), else none.
  static func judgeRunner<Model: LanguageModel>(for model: Model) -> ModelRunner? {
    (model as? any GuardrailsConfiguring)?.judgeRunner()
  }

  /// A runner of `model` used as a judge: on an executor of its own.
  static func judging(with model: any LanguageModel) -> ModelRunner {
    func runner<Model: LanguageModel>(_ model: Model) -> ModelRunner { ModelRunner(model) }
    return runner(model)
  }
}

/// An executor created on first use.
private final class LazyExecutor<Executor: LanguageModelExecutor>: Sendable {
  private let configuration: Executor.Configuration
  private let created = Mutex<Executor?>(nil)

  init(configuration: Executor.Configuration) {
    self.configuration = configuration
  }

  func get() throws -> Executor {
    try created.withLock { created in
      if let created { return created }
      let executor = try Executor(configuration: configuration)
      created = executor
      return executor
    }
  }
}
