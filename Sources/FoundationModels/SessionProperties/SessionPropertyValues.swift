import Foundation
import Observation
import Synchronization

/// A session's properties: state that its dynamic instructions, profiles and tools share, and
/// that app code reads and writes through `LanguageModelSession.properties`.
///
/// Matches FoundationModels 27 `SessionPropertyValues` (no public initializer; `Sendable`;
/// `Observable`). Values are stored by key type, under a lock. Observation is per object: reading
/// any property registers interest in every property, so a change to one notifies observers of
/// all of them.
public final class SessionPropertyValues: Sendable {
  /// The values of a session's tree or tool being evaluated or called now: what
  /// `@SessionProperty` wrappers read and write.
  @TaskLocal static var current: SessionPropertyValues?

  /// The turn whose tools, hooks or profile evaluations are running now: their history reads see
  /// the turn's conversation, and its session accepts their history writes.
  @TaskLocal static var turn: UUID?

  /// What a `@SessionProperty` read outside any session sees: the keys' default values.
  static let detached = SessionPropertyValues()

  /// A stored value. Unchecked: values need not be `Sendable` (Apple's keys do not require
  /// it); the mutex orders the reads and writes of the table.
  private struct Stored: @unchecked Sendable {
    let value: Any
  }

  private let storage = Mutex<[ObjectIdentifier: Stored]>([:])
  private let registrar = ObservationRegistrar()
  /// The session whose values these are; nil for `detached` and while a session is created.
  nonisolated(unsafe) weak var session: LanguageModelSession?

  init() {}

  /// The value of the property with key `key`: the key's default until it is set.
  ///
  /// Matches FoundationModels 27 `SessionPropertyValues.subscript(_:)`.
  public subscript<K: SessionPropertyKey>(key: K.Type) -> K.Value {
    get {
      registrar.access(self, keyPath: \.values)
      return storage.withLock { $0[ObjectIdentifier(key)] }?.value as? K.Value ?? K.defaultValue
    }
    set {
      registrar.withMutation(of: self, keyPath: \.values) {
        storage.withLock { $0[ObjectIdentifier(key)] = Stored(value: newValue) }
      }
    }
  }

  /// The key path observers of any property register, since a subscript has none of its own.
  private var values: Void { () }

  /// The session's conversation: its transcript after the leading instructions entry.
  ///
  /// Matches FoundationModels 27 `SessionPropertyValues.history`. Writing it replaces those
  /// entries and keeps the instructions.
  ///
  /// While a turn runs, its own profile hooks, tools and profile evaluations see the turn's
  /// conversation: the history, then the turn's new `.prompt` entry — so in an `onPrompt` hook
  /// `history.last` is the prompt just sent. Writing it there replaces that conversation,
  /// prompt included: a hook that trims the conversation to a window, or replaces it with one
  /// prompt that carries a summary and the new prompt's segments, decides what the turn's
  /// invocations send (after the profile's history transform) and what the transcript keeps.
  /// The entries the model and the tools produce during the turn are not in it; the transcript
  /// takes the conversation, followed by those entries, when the turn ends. A turn that fails
  /// or is cancelled leaves the transcript as it was before the turn, unless
  /// `transcriptErrorHandlingPolicy` is `.preserveTranscript` (then it keeps the conversation as
  /// rewritten and what the turn produced). Any other write while the session is responding is
  /// refused — the history stays as it was — and the response in progress fails with
  /// `LanguageModelSession.Error.transcriptMutationWhileResponding` (Apple's error for it; a
  /// setter cannot throw, so the request the write raced with reports it); any other read sees
  /// the transcript, without the turn's prompt. Outside a session the history is empty, and
  /// writing it is a programmer error.
  public var history: ArraySlice<Transcript.Entry> {
    get { session?.history(for: Self.turn) ?? [] }
    set {
      guard let session else {
        preconditionFailure("SessionPropertyValues.history was written outside a session.")
      }
      session.replaceHistory(with: newValue)
    }
  }

  /// The session's dynamic instructions: the tree that gives each model invocation its
  /// instructions and tools.
  ///
  /// Matches FoundationModels 27 `SessionPropertyValues.rootDynamicInstructions`. For a session
  /// created with fixed instructions and tools it reads as a tree of those, and for a session
  /// with a profile as a tree of the latest evaluation of its active profile's instructions and
  /// tools. Setting a tree on any session makes it evaluated before every following model
  /// invocation (the next round of a tool loop in progress too); with a profile, it replaces
  /// the instructions of every branch while the profile's other settings still apply. Outside a
  /// session it reads as empty, and writing it is a programmer error.
  public var rootDynamicInstructions: any DynamicInstructions {
    get {
      guard let session else { return EmptyDynamicInstructions() }
      return session.dynamicInstructions.tree ?? session.fixedInstructionsTree
    }
    set {
      guard let session else {
        preconditionFailure("SessionPropertyValues.rootDynamicInstructions was written outside a session.")
      }
      session.dynamicInstructions.tree = newValue
    }
  }
}

extension SessionPropertyValues: Observable {}
