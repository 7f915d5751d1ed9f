import ModelStore
import Synchronization

/// Collects the progress events of model pulls, from any task.
public final class PullProgressLog: Sendable {
  private let events = Mutex<[ModelPullProgress]>([])

  public init() {}

  /// The events so far, in order.
  public var all: [ModelPullProgress] { events.withLock { $0 } }

  /// Adds one event; pass it as a pull's `progress`.
  public func record(_ event: ModelPullProgress) { events.withLock { $0.append(event) } }
}
