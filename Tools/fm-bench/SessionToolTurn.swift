import Foundation
import FoundationModels

/// One turn of the tool-use set through `LanguageModelSession` (P12's side of ours): a new
/// session with the set's instructions and fake tools, greedy, `respond(to:)` to the final
/// answer, the calls read from the transcript.
struct SessionToolTurn {
  let model: SystemLanguageModel
  let tools: [FakeTool]
  let set: ToolUseSet
  let maximumTokens: Int

  private var options: GenerationOptions {
    GenerationOptions(samplingMode: .greedy, maximumResponseTokens: maximumTokens)
  }

  /// Runs `prompt` to its final answer and times it.
  func run(_ prompt: String) async -> ToolUseOutcome {
    let session = LanguageModelSession(model: model, tools: tools, instructions: set.instructions)
    return await respond(session, to: prompt, callsBefore: 0)
  }

  /// Continues from `prompt` followed by `round` (its calls and their outputs) to the final
  /// answer, and times it; the outcome's calls are those made after the round.
  ///
  /// The session has a profile of the same instructions and tools whose `onPrompt` hook puts
  /// the round after the prompt, so the turn's first model invocation sends the prompt, the
  /// calls and the outputs, and answers after them — as a session resumed from a transcript
  /// that ended with those outputs would, had Apple's API a way to answer without a new prompt.
  func run(_ prompt: String, after round: ToolRound) async -> ToolUseOutcome {
    let entries: [Transcript.Entry]
    do {
      entries = try round.transcriptEntries()
    } catch {
      return ToolUseOutcome(error: "\(error)")
    }
    let tools: [any Tool] = tools
    let profile = LanguageModelSession.Profile {
      Instructions(set.instructions)
      tools
    }
    .model(model)
    .modifier(ReplayedToolRound(entries: entries))
    return await respond(LanguageModelSession(profile: profile), to: prompt, callsBefore: 1)
  }

  /// Times `respond(to:)` on `session` and reads the turn's calls (after the first
  /// `callsBefore` call entries) and usage from it.
  private func respond(_ session: LanguageModelSession, to prompt: String, callsBefore: Int) async -> ToolUseOutcome {
    var outcome = ToolUseOutcome()
    // A failed turn keeps its calls in the transcript, so that they are still counted.
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    let start = DispatchTime.now()
    do {
      outcome.answer = try await session.respond(to: prompt, options: options).content
    } catch {
      outcome.error = "\(error)"
    }
    outcome.seconds = elapsed(since: start)
    let callEntries = session.transcript.compactMap { entry -> Transcript.ToolCalls? in
      guard case .toolCalls(let calls) = entry else { return nil }
      return calls
    }
    for calls in callEntries.dropFirst(callsBefore) {
      outcome.calls += calls.map { MadeCall(name: $0.toolName, arguments: $0.arguments.jsonString) }
    }
    let usage = session.usage
    outcome.evaluatedPromptTokens = usage.input.totalTokenCount - usage.input.cachedTokenCount
    outcome.outputTokens = usage.output.totalTokenCount
    return outcome
  }
}

/// Puts a tool round (its call entry and output entries) after the prompt of the turn that
/// starts: the turn's invocations continue from it, and the transcript keeps it.
struct ReplayedToolRound: LanguageModelSession.DynamicProfileModifier {
  let entries: [Transcript.Entry]
  @SessionProperty(\.history) var history

  func body(content: Content) -> some DynamicProfile {
    content.onPrompt { history += entries }
  }
}
