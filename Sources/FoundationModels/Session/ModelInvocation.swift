/// Why a model invocation ended.
package enum InvocationStopReason: Sendable, Equatable {
  /// The model ended its answer, or the schema's output was complete.
  case endOfTurn
  /// The answer reached the request's `maximumResponseTokens` (as the local model reports it in
  /// its figures; a provider that does not report it ends with ``endOfTurn``).
  case maximumTokens
  /// The model called tools.
  case toolCalls
  /// The caller ended the invocation before the model did.
  case stopped
}

/// One call of a model's executor, its channel events assembled into transcript entries as they
/// arrive: the one way the session's turns, the guardrails' judge and `fm serve` invoke a model.
///
/// The executor runs in a child task and the caller reads its events in order; the channel is
/// finished when the executor returns or throws, and the executor is cancelled when the caller
/// stops or throws.
package struct ModelInvocation: Sendable {
  private let execute:
    @Sendable (LanguageModelExecutorGenerationRequest, LanguageModelExecutorGenerationChannel) async throws -> Void

  init(
    execute: @escaping @Sendable (LanguageModelExecutorGenerationRequest, LanguageModelExecutorGenerationChannel)
      async throws -> Void
  ) {
    self.execute = execute
  }

  /// An invocation on `executor`, an executor of `model`.
  package init<Model: LanguageModel>(model: Model, executor: Model.Executor) {
    execute = { request, channel in try await executor.respond(to: request, model: model, streamingInto: channel) }
  }

  /// What the caller does after an event.
  package enum Next: Sendable {
    case proceed
    /// Ends the invocation here: the executor is cancelled.
    case stop
  }

  /// One event, once applied.
  package struct Update {
    /// The text this event appended to the answer, if it appended any.
    package var appendedText: String?
    /// The text this event appended to the model's thinking, if it appended any.
    package var appendedReasoning: String?
    /// Everything the invocation has produced so far.
    package var assembled: TurnAssembler
  }

  /// Runs `request`, applying each event to `assembler` (so that a failed invocation leaves
  /// what it had produced there) and then calling `update`.
  /// - Returns: why the invocation ended.
  /// - Throws: the executor's error, or `update`'s.
  package func run(
    _ request: LanguageModelExecutorGenerationRequest, into assembler: inout TurnAssembler,
    update: (Update) async throws -> Next = { _ in .proceed }
  ) async throws -> InvocationStopReason {
    let channel = LanguageModelExecutorGenerationChannel()
    let execute = execute
    var stopped = false
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        do {
          try await execute(request, channel)
          channel.finish()
        } catch {
          channel.finish(throwing: error)
        }
      }
      for try await event in channel {
        assembler.apply(event)
        var appended: String?
        var thought: String?
        if let response = event as? LanguageModelExecutorGenerationChannel.Response,
          case .appendText(let fragment) = response.action
        {
          appended = fragment.content
        }
        if let reasoning = event as? LanguageModelExecutorGenerationChannel.Reasoning,
          case .appendText(let fragment) = reasoning.action
        {
          thought = fragment.content
        }
        if try await update(Update(appendedText: appended, appendedReasoning: thought, assembled: assembler)) == .stop {
          stopped = true
          break
        }
      }
      group.cancelAll()
    }
    // The calls made before a stop are still the invocation's outcome.
    if assembler.hasToolCalls { return .toolCalls }
    if stopped { return .stopped }
    return assembler.reachedMaximumTokens ? .maximumTokens : .endOfTurn
  }
}
