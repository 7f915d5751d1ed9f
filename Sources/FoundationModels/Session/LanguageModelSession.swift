import Foundation
import Observation
import Synchronization

/// A conversation with a language model: the transcript of its turns, one request at a time.
///
/// Matches FoundationModels `LanguageModelSession`: `@unchecked Sendable` (its state is behind a
/// lock) and `Observable` (`transcript` and `isResponding` notify observers). Each session keeps
/// its own KV cache on the model, so a turn evaluates only what the transcript added since the
/// last one.
public final class LanguageModelSession: @unchecked Sendable {
  /// The model this session runs on.
  let model: SystemLanguageModel
  /// Tools the model may call during this session.
  ///
  /// So far on Linux their definitions reach the model in the instructions, but the calls it
  /// writes are neither parsed nor run: they come back as the reply's text.
  let tools: [any Tool]
  let executor: any LanguageModelExecutor
  private let state: Mutex<SessionState>
  private let registrar = ObservationRegistrar()

  /// Matches FoundationModels `LanguageModelSession.init(model:tools:instructions:)` (String).
  @_disfavoredOverload
  public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: String? = nil) {
    self.init(model: model, tools: tools, instructions: instructions.map { Instructions($0) })
  }

  /// Matches FoundationModels `LanguageModelSession.init(model:tools:instructions:)` (builder).
  public convenience init(
    model: SystemLanguageModel = .default, tools: [any Tool] = [],
    @InstructionsBuilder instructions: () throws -> Instructions
  ) rethrows {
    self.init(model: model, tools: tools, instructions: try instructions())
  }

  /// Matches FoundationModels `LanguageModelSession.init(model:tools:instructions:)`.
  ///
  /// The transcript starts with an instructions entry when there are instructions or tools
  /// (the entry carries the tool definitions); with neither it starts empty and the model's
  /// default system prompt applies. Tools are described to the model but their calls are not
  /// run yet on Linux (see `tools`).
  public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: Instructions? = nil) {
    var entries: [Transcript.Entry] = []
    if instructions != nil || !tools.isEmpty {
      entries.append(
        .instructions(
          Transcript.Instructions(
            segments: instructions?.segments ?? [], toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) })))
    }
    self.init(model: model, tools: tools, transcript: Transcript(entries: entries))
  }

  /// Matches FoundationModels `LanguageModelSession.init(model:tools:transcript:)`: continues
  /// the conversation of `transcript`. The first request evaluates the whole transcript; the
  /// following ones reuse the KV cache like any other session.
  public init(model: SystemLanguageModel = .default, tools: [any Tool] = [], transcript: Transcript) {
    self.model = model
    self.tools = tools
    executor = LocalLanguageModelProvider(model: model).makeExecutor()
    state = Mutex(SessionState(transcript: transcript))
  }

  /// Matches FoundationModels `LanguageModelSession.transcript`: every entry of the session so
  /// far. A failed or cancelled turn leaves it exactly as it was before that turn.
  public var transcript: Transcript {
    registrar.access(self, keyPath: \.transcript)
    return state.withLock { $0.transcript }
  }

  /// Matches FoundationModels `LanguageModelSession.isResponding`.
  public var isResponding: Bool {
    registrar.access(self, keyPath: \.isResponding)
    return state.withLock { $0.activeTurn != nil }
  }

  /// Matches FoundationModels `LanguageModelSession.prewarm(promptPrefix:)`: loads the model
  /// and evaluates the instructions (and the prefix) into the KV cache in the background.
  /// Best effort: failures are ignored here and reported by the next request.
  public func prewarm(promptPrefix: Prompt? = nil) {
    let transcript = state.withLock { $0.transcript }
    let executor = executor
    Task { try? await executor.prewarm(transcript: transcript, promptPrefix: promptPrefix) }
  }

  /// Starts a turn if none is running.
  /// - Returns: the turn's id, or nil when the session is busy.
  func beginTurn() -> UUID? {
    let turn = UUID()
    let started = registrar.withMutation(of: self, keyPath: \.isResponding) {
      state.withLock { state -> Bool in
        guard state.activeTurn == nil else { return false }
        state.activeTurn = turn
        return true
      }
    }
    return started ? turn : nil
  }

  /// Ends a turn, appending `entries` to the transcript when it succeeded.
  /// - Returns: the appended entries as a slice of the new transcript, or nil when the turn was
  ///   no longer the active one (it had been cancelled).
  @discardableResult
  func endTurn(_ turn: UUID, appending entries: [Transcript.Entry] = []) -> ArraySlice<Transcript.Entry>? {
    registrar.withMutation(of: self, keyPath: \.isResponding) {
      registrar.withMutation(of: self, keyPath: \.transcript) {
        state.withLock { state -> ArraySlice<Transcript.Entry>? in
          guard state.activeTurn == turn else { return nil }
          state.activeTurn = nil
          let start = state.transcript.entries.count
          state.transcript.entries.append(contentsOf: entries)
          return state.transcript.entries[start...]
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
  var activeTurn: UUID?
}
