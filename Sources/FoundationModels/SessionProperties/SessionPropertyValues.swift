import Foundation
import Observation

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

  /// The turn whose tools or hooks are running now: its session accepts their history writes.
  @TaskLocal static var turn: UUID?

  /// What a `@SessionProperty` read outside any session sees: the keys' default values.
  static let detached = SessionPropertyValues()

  private let lock = NSLock()
  private nonisolated(unsafe) var storage: [ObjectIdentifier: Any] = [:]
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
      return lock.withLock { storage[ObjectIdentifier(key)] as? K.Value } ?? K.defaultValue
    }
    set {
      registrar.withMutation(of: self, keyPath: \.values) {
        lock.withLock { storage[ObjectIdentifier(key)] = newValue }
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
  /// The running turn's own tools and profile hooks may write it — a hook that summarises or
  /// trims the conversation when a prompt arrives — and the turn's next invocation sends the
  /// new history; the turn's entries are appended to it when the turn ends. Any other write
  /// while the session is responding is refused — the history stays as it was — and the
  /// response in progress fails with `LanguageModelSession.Error.transcriptMutationWhileResponding`
  /// (Apple's error for it; a setter cannot throw, so the request the write raced with reports
  /// it). Outside a session the history is empty, and writing it is a programmer error.
  public var history: ArraySlice<Transcript.Entry> {
    get { session?.transcript.history ?? [] }
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
