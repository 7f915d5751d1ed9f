import Foundation
import Observation
import Synchronization

/// A conversation with a language model: the transcript of its turns, one request at a time.
///
/// Matches FoundationModels `LanguageModelSession`: `@unchecked Sendable` (its state is behind a
/// lock) and `Observable` (`transcript`, `isResponding`, `usage` and
/// `transcriptErrorHandlingPolicy` notify observers). The session reaches its model — the local
/// one or any `LanguageModel` a package provides — only through the model's
/// `LanguageModelExecutor`: it builds each request, turns the executor's events into transcript
/// entries and snapshots, and runs the tool loop.
///
/// Errors: a session created with a 26 initializer (`model: SystemLanguageModel`, or no model)
/// reports the 26 family, `GenerationError`, as code written for 26 catches it; a session
/// created with a 27 initializer (`model: some LanguageModel`) reports the 27 family
/// (`LanguageModelError`, `LanguageModelSession.Error`, `GeneratedContent.ParsingError`,
/// `SystemLanguageModel.Error`), passing a provider's errors on unchanged. Apple picks the
/// family by the SDK an app links; Linux has no such signal, and the initializer is the
/// nearest one. 27 errors without a 26 counterpart (`unsupportedCapability`,
/// `unsupportedTranscriptContent`, `timeout`) are reported as they are in both.
public final class LanguageModelSession: @unchecked Sendable {
  /// The model, behind its executor.
  let runner: ModelRunner
  /// The session's models by key, the initial one included, so that a profile's `model(_:)`
  /// keeps one executor per distinct model.
  private let runners: Mutex<[ModelRunner.Key: ModelRunner]>
  /// The profile that configures each invocation, for a session created with one.
  let profile: DynamicProfileRoot?
  /// Tools the model may call during this session, while it has no dynamic instructions; the
  /// session runs the calls it makes.
  let tools: [any Tool]
  /// The tree that gives each invocation its instructions and tools, once the session has one
  /// (from its initializer or `properties.rootDynamicInstructions`). The transcript then starts
  /// with the instructions entry of the latest evaluation.
  let dynamicInstructions: DynamicInstructionsRoot
  /// Matches FoundationModels 27 `LanguageModelSession.properties`: the session's properties,
  /// which its dynamic instructions, profiles and tools read and write with `@SessionProperty`.
  public let properties: SessionPropertyValues
  /// Whether errors are reported in the 26 family (see the type's documentation).
  let reportsGenerationErrors: Bool
  private let state: Mutex<SessionState>
  private let registrar = ObservationRegistrar()

  init(
    runner: ModelRunner, tools: [any Tool], transcript: Transcript, reportsGenerationErrors: Bool,
    dynamicInstructions: DynamicInstructionsRoot = DynamicInstructionsRoot(),
    properties: SessionPropertyValues = SessionPropertyValues(), profile: DynamicProfileRoot? = nil
  ) {
    self.runner = runner
    runners = Mutex([runner.key: runner])
    self.profile = profile
    self.tools = tools
    self.dynamicInstructions = dynamicInstructions
    self.properties = properties
    self.reportsGenerationErrors = reportsGenerationErrors
    state = Mutex(SessionState(transcript: transcript))
    properties.session = self
  }

  /// The first entry of a new session: instructions, with the tools' definitions.
  static func openingTranscript(instructions: Instructions?, tools: [any Tool]) -> Transcript {
    guard instructions != nil || !tools.isEmpty else { return Transcript() }
    return Transcript(entries: [
      .instructions(
        Transcript.Instructions(
          segments: instructions?.segments ?? [], toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) }))
    ])
  }

  /// Matches FoundationModels `LanguageModelSession.transcript`: every entry of the session so
  /// far. A cancelled turn leaves it exactly as it was before that turn; so does a failed one,
  /// unless ``transcriptErrorHandlingPolicy`` is `.preserveTranscript`.
  public var transcript: Transcript {
    registrar.access(self, keyPath: \.transcript)
    return state.withLock { $0.transcript }
  }

  /// Matches FoundationModels `LanguageModelSession.isResponding`.
  public var isResponding: Bool {
    registrar.access(self, keyPath: \.isResponding)
    return state.withLock { $0.activeTurn != nil }
  }

  /// The tokens of every completed turn of this session.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.usage`.
  public var usage: Usage {
    registrar.access(self, keyPath: \.usage)
    return state.withLock { $0.usage }
  }

  /// What a failed request does to the transcript: nil (the default) and `.revertTranscript`
  /// leave it as it was before the request; `.preserveTranscript` keeps the request's prompt and
  /// what the model and the tools produced before the failure.
  ///
  /// Matches FoundationModels 27 `LanguageModelSession.transcriptErrorHandlingPolicy`. A request
  /// follows the policy set when it started.
  public var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy? {
    get {
      registrar.access(self, keyPath: \.transcriptErrorHandlingPolicy)
      return state.withLock { $0.transcriptErrorHandlingPolicy }
    }
    set {
      registrar.withMutation(of: self, keyPath: \.transcriptErrorHandlingPolicy) {
        state.withLock { $0.transcriptErrorHandlingPolicy = newValue }
      }
    }
  }

  /// Matches FoundationModels `LanguageModelSession.prewarm(promptPrefix:)`: asks the model's
  /// executor to get ready for the transcript (and the prefix of the next prompt). For the local
  /// model: loads it and evaluates the instructions (and the prefix) into the KV cache in the
  /// background. Best effort: failures are reported by the next request.
  public func prewarm(promptPrefix: Prompt? = nil) {
    var transcript = state.withLock { $0.transcript }
    if let promptPrefix { transcript.entries.append(.prompt(Transcript.Prompt(segments: promptPrefix.segments))) }
    runner.prewarm(transcript)
  }

  /// Evaluates the dynamic instructions for the next invocation — the session's tree, else
  /// the active profile's — recording their instructions entry as the first of the transcript
  /// (in place of the leading instructions entry, if any).
  /// - Returns: nil while the session has neither.
  func evaluateDynamicInstructions(profileInstructions: (any DynamicInstructions)? = nil) -> EvaluatedInstructions? {
    guard let evaluated = dynamicInstructions.evaluate(with: properties, fallback: profileInstructions) else {
      return nil
    }
    registrar.withMutation(of: self, keyPath: \.transcript) {
      state.withLock { state in
        let history = state.transcript.history
        state.transcript.entries = [evaluated.entry] + history
        state.latestTools = evaluated.tools
      }
    }
    return evaluated
  }

  /// The session's current instructions and tools as a tree, for a session without a tree of
  /// its own: its fixed ones, or the latest evaluation of its profile's.
  var fixedInstructionsTree: any DynamicInstructions {
    var segments: [Transcript.Segment] = []
    if case .instructions(let instructions)? = transcript.first { segments = instructions.segments }
    let tools = state.withLock { $0.latestTools } ?? tools
    return TupleDynamicInstructions(InstructionSegments(segments: segments), EnabledTools(tools: tools))
  }

  /// The runner of `model`: the session's existing one for the same model, or a new one.
  func runner(for model: some LanguageModel) -> ModelRunner {
    let candidate = ModelRunner(model)
    return runners.withLock { runners in
      if let existing = runners[candidate.key] { return existing }
      runners[candidate.key] = candidate
      return candidate
    }
  }

  /// The conversation that `properties.history` reads for the current task: the running turn's
  /// (its prompt at the end, as its hooks and tools left it) while that turn's own tools, hooks
  /// and profile evaluations read it, else the transcript's.
  func history(for reader: UUID?) -> ArraySlice<Transcript.Entry> {
    registrar.access(self, keyPath: \.transcript)
    let (turn, history) = state.withLock { ($0.activeTurn, $0.transcript.history) }
    if let turn, turn.id == reader { return turn.conversation }
    return history
  }

  /// Replaces the conversation after the instructions. A write from the running turn's own
  /// tools or hooks replaces that turn's conversation (the transcript takes it when the turn
  /// ends, if it keeps its entries); any other write while a turn is running is refused, and the
  /// turn fails with `transcriptMutationWhileResponding`.
  func replaceHistory(with history: ArraySlice<Transcript.Entry>) {
    let writer = SessionPropertyValues.turn
    registrar.withMutation(of: self, keyPath: \.transcript) {
      state.withLock { state in
        guard let active = state.activeTurn else {
          state.transcript.history = history
          return
        }
        if active.id == writer {
          active.replaceConversation(with: history)
        } else {
          active.refuseHistoryWrite()
        }
      }
    }
  }

  /// Starts a turn if none is running: its conversation is the transcript's history followed
  /// by `prompt` (the transcript itself is unchanged until the turn ends).
  /// - Returns: the turn, or nil when the session is busy.
  func beginTurn(prompt: Transcript.Entry) -> ActiveTurn? {
    registrar.withMutation(of: self, keyPath: \.isResponding) {
      state.withLock { state -> ActiveTurn? in
        guard state.activeTurn == nil else { return nil }
        let turn = ActiveTurn(conversation: state.transcript.history + [prompt])
        state.activeTurn = turn
        return turn
      }
    }
  }

  /// Ends a turn. With `entries` (a successful turn's, or what a failed turn keeps) the
  /// transcript's history becomes the turn's conversation — the history and the prompt as the
  /// turn's hooks and tools left them — followed by `entries`, and `usage` is added to the
  /// session's; without, the transcript stays as it was before the turn.
  /// - Parameter prompt: the turn's prompt as its hooks left it, if it was kept.
  /// - Returns: the turn's entries in the new transcript (its prompt, if it is still just before
  ///   `entries`, then `entries`), or nil when the turn was no longer the active one (it had been
  ///   cancelled).
  @discardableResult
  func endTurn(
    _ turn: ActiveTurn, keeping entries: [Transcript.Entry]? = nil, prompt: Transcript.Entry? = nil,
    usage: Usage? = nil
  ) -> ArraySlice<Transcript.Entry>? {
    registrar.withMutation(of: self, keyPath: \.isResponding) {
      registrar.withMutation(of: self, keyPath: \.transcript) {
        registrar.withMutation(of: self, keyPath: \.usage) {
          state.withLock { state -> ArraySlice<Transcript.Entry>? in
            guard state.activeTurn === turn else { return nil }
            state.activeTurn = nil
            guard let entries else { return state.transcript.entries[state.transcript.entries.endIndex...] }
            state.transcript.history = turn.conversation + entries
            if let usage { state.usage = state.usage.adding(usage) }
            var start = state.transcript.entries.count - entries.count
            if let prompt, start > 0, case .prompt = state.transcript.entries[start - 1],
              state.transcript.entries[start - 1].id == prompt.id
            {
              start -= 1
            }
            return state.transcript.entries[start...]
          }
        }
      }
    }
  }
}

extension LanguageModelSession: Observable {}

/// What a session's lock protects.
struct SessionState {
  var transcript: Transcript
  /// The running turn, if any.
  var activeTurn: ActiveTurn?
  var usage = LanguageModelSession.Usage.zero
  var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?
  /// The tools of the latest evaluation of dynamic instructions, if any.
  var latestTools: [any Tool]?
}
