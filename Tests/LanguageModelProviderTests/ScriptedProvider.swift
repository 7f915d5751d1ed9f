import Foundation
import FoundationModels
import Synchronization

/// What one model invocation of a ``ScriptedProvider`` does: send these events, then throw
/// `error` if there is one.
struct Round: Sendable {
  var events: [any LanguageModelExecutorGenerationChannel.Event]
  var error: (any Error)?
  /// How long the executor waits after its events (until cancelled), like a slow model.
  var pause: Duration

  init(
    _ events: [any LanguageModelExecutorGenerationChannel.Event], error: (any Error)? = nil, pause: Duration = .zero
  ) {
    self.events = events
    self.error = error
    self.pause = pause
  }
}

/// The rounds a provider plays back, and the requests it received.
final class ProviderScript: Sendable {
  let id = UUID()
  private let state: Mutex<(rounds: [Round], requests: [LanguageModelExecutorGenerationRequest])>

  init(_ rounds: [Round]) {
    state = Mutex((rounds, []))
  }

  var requests: [LanguageModelExecutorGenerationRequest] { state.withLock { $0.requests } }

  /// How many executors have been created for this script.
  var executorCount: Int { executors.withLock { $0 } }
  let executors = Mutex(0)

  func next(for request: LanguageModelExecutorGenerationRequest) -> Round {
    state.withLock { state in
      state.requests.append(request)
      return state.rounds.isEmpty ? Round([]) : state.rounds.removeFirst()
    }
  }
}

/// A provider written the way a package for Apple's 27 SDK writes one, with only
/// `import FoundationModels`: its executor plays back a script.
struct ScriptedProvider: LanguageModel {
  typealias Executor = ScriptedExecutor

  let script: ProviderScript
  var capabilities = LanguageModelCapabilities(capabilities: [.guidedGeneration, .reasoning, .toolCalling])

  init(_ rounds: [Round], capabilities: [LanguageModelCapabilities.Capability]? = nil) {
    script = ProviderScript(rounds)
    let script = script
    ScriptedExecutor.scripts.withLock { $0[script.id] = script }
    if let capabilities { self.capabilities = LanguageModelCapabilities(capabilities: capabilities) }
  }

  var executorConfiguration: ScriptedExecutor.Configuration {
    ScriptedExecutor.Configuration(scriptID: script.id)
  }
}

struct ScriptedExecutor: LanguageModelExecutor {
  struct Configuration: Hashable, Sendable {
    let scriptID: UUID
  }

  init(configuration: Configuration) throws {
    ScriptedExecutor.created(configuration.scriptID)
  }

  /// The scripts by id, so that an executor can count itself in its script.
  static let scripts = Mutex<[UUID: ProviderScript]>([:])

  static func created(_ scriptID: UUID) {
    let script = scripts.withLock { $0[scriptID] }
    script?.executors.withLock { $0 += 1 }
  }

  func respond(
    to request: LanguageModelExecutorGenerationRequest, model: ScriptedProvider,
    streamingInto channel: LanguageModelExecutorGenerationChannel
  ) async throws {
    let round = model.script.next(for: request)
    for event in round.events {
      await channel.send(event)
    }
    if round.pause > .zero { try await Task.sleep(for: round.pause) }
    if let error = round.error { throw error }
  }
}

/// Usage as a provider reports it.
func usage(input: Int, cached: Int = 0, output: Int, reasoning: Int = 0)
  -> LanguageModelExecutorGenerationChannel.Response.Action
{
  .updateUsage(
    input: .init(totalTokenCount: input, cachedTokenCount: cached),
    output: .init(totalTokenCount: output, reasoningTokenCount: reasoning))
}

/// Streams the answer to `prompt` until its text is `text`, then drops the stream, which cancels
/// the turn, and waits (up to ten seconds) for the session to be free again.
/// - Returns: whether the text arrived.
func dropStream(of session: LanguageModelSession, prompt: String, whenTextIs text: String) async throws -> Bool {
  let reader = Task {
    for try await snapshot in session.streamResponse(to: prompt) where snapshot.content == text {
      return true
    }
    return false
  }
  guard try await reader.value else { return false }
  let deadline = ContinuousClock.now + .seconds(10)
  while session.isResponding, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
  return true
}
