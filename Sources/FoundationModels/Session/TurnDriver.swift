import Foundation
import Guardrails

/// Runs one turn: performs the steps `TurnSteps` decides — preparing each invocation, running
/// hooks, checking texts with the guardrails, invoking the model and running its tools — until
/// the model answers.
struct TurnDriver {
  let session: LanguageModelSession
  let turn: ActiveTurn
  let request: TurnRequest
  /// Whether the request generates a `String` (the guardrails' permissive mode skips those).
  let generatesString: Bool

  /// A turn that failed, with what it had produced by then (for `.preserveTranscript`).
  struct Failure: Swift.Error {
    var error: any Swift.Error
    /// Every entry of the finished rounds, then what the failing invocation had sent (the
    /// turn's conversation, with its prompt, is the session's).
    var entries: [Transcript.Entry]
    /// The error policy of the profile of the failing invocation, if it set one.
    var profilePolicy: TranscriptErrorHandlingPolicy?
  }

  /// Runs the turn, calling `snapshot` with the entries, the answer's text and the usage so far
  /// whenever the answer grows.
  func run(
    snapshot: ([Transcript.Entry], String, LanguageModelSession.Usage) throws -> Void
  ) async throws(Failure) -> TurnResult {
    var steps = TurnSteps(request: request, prompt: turn.currentPrompt)
    // The invocation in progress: a failed one leaves what it had sent here.
    var invocation = TurnAssembler()
    do {
      var step = steps.start()
      var guardrails: TurnGuardrails?
      while true {
        switch step {
        case .prepare:
          let setup = try await bound { await session.prepareInvocation(for: request) }
          guardrails = TurnGuardrails(runner: setup.runner, generatesString: generatesString)
          step = try steps.prepared(setup, conversation: turn.conversation)
        case .runHooks(let hooks):
          try await bound { for hook in hooks { try await hook() } }
          step = try steps.next(conversation: turn.conversation)
        case .checkInput(let text, let source):
          try await guardrails?.checkInput(text, source: source)
          step = try steps.next(conversation: turn.conversation)
        case .invoke(let executorRequest):
          guard let setup = steps.setup, let guardrails else { preconditionFailure("invoked before preparing") }
          try await invoke(executorRequest, on: setup.runner, guardrails: guardrails, into: &invocation) {
            entries, text, invocationUsage in
            let usage = invocationUsage.map(steps.usage.adding) ?? steps.usage
            try snapshot((steps.prompt.map { [$0] } ?? []) + steps.produced + entries, text, usage)
          }
          // An executor may end early when the turn is cancelled; what it sent is not an answer.
          try Task.checkCancellation()
          let entries = try invocation.finishedEntries()
          let usage = invocation.usage
          invocation = TurnAssembler()  // the next invocation's, empty until it sends something
          step = try steps.invoked(entries, usage: usage, conversation: turn.conversation)
        case .runTools(let calls):
          let tools = steps.setup?.tools ?? []
          let outputs = try await bound { try await ToolRunner(tools: tools).outputs(for: calls) }
          step = try steps.toolsRan(calls, outputs: outputs, conversation: turn.conversation)
        case .finish(let result):
          return result
        }
      }
    } catch {
      throw steps.failure(error, partial: invocation.entries, conversation: turn.conversation)
    }
  }

  /// Runs `body` with the session's properties and this turn bound, as tools and hooks run.
  private func bound<Result>(_ body: () async throws -> Result) async throws -> Result {
    try await SessionPropertyValues.$current.withValue(session.properties) {
      try await SessionPropertyValues.$turn.withValue(turn.id) { try await body() }
    }
  }

  /// One model invocation, its events assembled into `assembler` as they arrive, the growing
  /// answer checked by the guardrails before each snapshot and all of it at the end.
  private func invoke(
    _ request: LanguageModelExecutorGenerationRequest, on runner: ModelRunner, guardrails: TurnGuardrails,
    into assembler: inout TurnAssembler,
    snapshot: ([Transcript.Entry], String, LanguageModelExecutorGenerationChannel.Usage?) throws -> Void
  ) async throws {
    var shown: String?
    var checkpoints = StreamingCheckpoints()
    _ = try await runner.invocation.run(request, into: &assembler) { update in
      // A response entry opens before its first text (metadata comes first), so there is no
      // snapshot until there is text.
      guard let text = update.assembled.responseText, !text.isEmpty, text != shown else { return .proceed }
      shown = text
      // Checked before the snapshot is shown: a violation ends the stream there, and throwing
      // here cancels the executor.
      try await guardrails.checkGrowingOutput(text, checkpoints: &checkpoints)
      try snapshot(update.assembled.entries, text, update.assembled.usage)
      return .proceed
    }
    if guardrails.isActive, let text = assembler.responseText { try await guardrails.checkOutput(text) }
  }
}
