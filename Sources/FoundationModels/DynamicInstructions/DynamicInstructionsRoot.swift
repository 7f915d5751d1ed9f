import Foundation
import Synchronization

/// A session's dynamic instructions tree, which the session evaluates before each invocation
/// and `SessionPropertyValues.rootDynamicInstructions` replaces.
///
/// The tree need not be `Sendable` (Apple's protocol does not require it). The session
/// evaluates it once at a time (one turn at a time), outside the lock, so a body may read the
/// session's properties — `rootDynamicInstructions` included — while it is evaluated.
final class DynamicInstructionsRoot: Sendable {
  /// The tree as stored. Unchecked: the tree need not be `Sendable`; the mutex orders the
  /// reads and writes of the reference, and the session evaluates the tree one turn at a time.
  private struct Stored: @unchecked Sendable {
    let tree: (any DynamicInstructions)?
  }

  /// Nil for a session created without dynamic instructions, until one is set.
  private let stored: Mutex<Stored>

  init() {
    stored = Mutex(Stored(tree: nil))
  }

  init(_ tree: sending some DynamicInstructions) {
    stored = Mutex(Stored(tree: tree))
  }

  /// The tree, or nil when the session has none.
  var tree: (any DynamicInstructions)? {
    get { stored.withLock { $0 }.tree }
    set { stored.withLock { $0 = Stored(tree: newValue) } }
  }

  /// Evaluates the tree — or `fallback` when there is none — with `properties` bound for its
  /// `@SessionProperty` wrappers.
  /// - Returns: nil when there is neither.
  func evaluate(
    with properties: SessionPropertyValues, fallback: (any DynamicInstructions)? = nil
  ) -> EvaluatedInstructions? {
    guard let tree = tree ?? fallback else { return nil }
    return SessionPropertyValues.$current.withValue(properties) { DynamicInstructionsEvaluator.evaluate(tree) }
  }
}
