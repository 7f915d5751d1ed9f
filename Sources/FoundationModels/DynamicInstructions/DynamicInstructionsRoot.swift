import Foundation

/// A session's dynamic instructions tree, which the session evaluates before each invocation
/// and `SessionPropertyValues.rootDynamicInstructions` replaces.
///
/// The tree need not be `Sendable` (Apple's protocol does not require it). The session
/// evaluates it once at a time (one turn at a time), outside the lock, so a body may read the
/// session's properties — `rootDynamicInstructions` included — while it is evaluated.
final class DynamicInstructionsRoot: Sendable {
  private let lock = NSLock()
  /// Nil for a session created without dynamic instructions, until one is set.
  private nonisolated(unsafe) var storedTree: (any DynamicInstructions)?

  init() {}

  init(_ tree: sending some DynamicInstructions) {
    storedTree = tree
  }

  /// The tree, or nil when the session has none.
  var tree: (any DynamicInstructions)? {
    get { lock.withLock { storedTree } }
    set { lock.withLock { storedTree = newValue } }
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
