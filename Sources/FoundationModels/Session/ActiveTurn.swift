import Foundation
import Synchronization

/// A running turn and the conversation it owns: the transcript's history when it began, then
/// its prompt, as its hooks and tools rewrite it.
///
/// The transcript takes the conversation, followed by what the turn produced, when the turn
/// ends and keeps its entries; until then `properties.history` read by the turn's own tools,
/// hooks and profile evaluations is this conversation.
final class ActiveTurn: Sendable {
  /// The id the turn's tools and hooks run under (`SessionPropertyValues.turn`).
  let id = UUID()
  private let state: Mutex<State>

  private struct State {
    var conversation: ArraySlice<Transcript.Entry>
    /// Whether a write of the history from outside the turn was refused while it ran.
    var refusedHistoryWrite = false
  }

  init(conversation: ArraySlice<Transcript.Entry>) {
    state = Mutex(State(conversation: conversation))
  }

  var conversation: ArraySlice<Transcript.Entry> {
    state.withLock { $0.conversation }
  }

  /// The turn's prompt as the conversation has it now: its last entry, when that is a prompt.
  var currentPrompt: Transcript.Entry? {
    TurnSteps.prompt(in: conversation)
  }

  /// Replaces the conversation: a write from the turn's own tools or hooks.
  func replaceConversation(with conversation: ArraySlice<Transcript.Entry>) {
    state.withLock { $0.conversation = conversation }
  }

  /// Records that a history write from outside the turn was refused: the turn fails with
  /// `transcriptMutationWhileResponding`.
  func refuseHistoryWrite() {
    state.withLock { $0.refusedHistoryWrite = true }
  }

  var refusedHistoryWrite: Bool {
    state.withLock { $0.refusedHistoryWrite }
  }
}
