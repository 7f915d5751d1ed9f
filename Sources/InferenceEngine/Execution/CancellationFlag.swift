import Synchronization

/// A flag that a consumer sets to stop work running on another thread.
///
/// The decode loop reads it between tokens, and llama.cpp's abort callback reads it during a
/// long prefill, so cancelling never waits for more than one ubatch to finish.
public final class CancellationFlag: Sendable {
  private let state = Atomic<Bool>(false)

  public init() {}

  public var isCancelled: Bool { state.load(ordering: .relaxed) }

  public func cancel() { state.store(true, ordering: .relaxed) }
}
