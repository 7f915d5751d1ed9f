import Synchronization

/// How many chat completions run at once (`--parallel`) and how many may wait for a turn
/// (`--queue`); past that a request is refused at once (503 with `Retry-After`), so a burst
/// cannot pile up unbounded work.
final class SlotLimiter: Sendable {
  let slots: Int
  let queueLimit: Int
  private let state = Mutex(State())

  private struct State {
    var busy = 0
    var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    var nextID = 0
  }

  struct QueueFull: Error {}

  init(slots: Int, queue: Int) {
    self.slots = max(1, slots)
    queueLimit = max(0, queue)
  }

  /// Slots in use and requests waiting.
  var usage: (busy: Int, waiting: Int) { state.withLock { ($0.busy, $0.waiting.count) } }

  /// Runs `body` in a slot, waiting in the queue for one.
  /// - Throws: `QueueFull` when the queue is full; `CancellationError` when cancelled while waiting.
  func withSlot<Result>(_ body: () async throws -> Result) async throws -> Result {
    try await acquire()
    defer { release() }
    return try await body()
  }

  /// Takes a slot, or a place in the queue and then a slot. The decision and the enqueueing
  /// happen under one lock, so a slot freed in between cannot be missed.
  private func acquire() async throws {
    enum Decision {
      case run, wait, refuse, cancelled
    }
    let id = state.withLock { state -> Int in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let decision = state.withLock { state -> Decision in
          if Task.isCancelled { return .cancelled }
          if state.busy < slots {
            state.busy += 1
            return .run
          }
          guard state.waiting.count < queueLimit else { return .refuse }
          state.waiting.append((id, continuation))
          return .wait
        }
        switch decision {
        case .run: continuation.resume()
        case .refuse: continuation.resume(throwing: QueueFull())
        case .cancelled: continuation.resume(throwing: CancellationError())
        case .wait: break
        }
      }
    } onCancel: {
      let removed = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiting.remove(at: index).continuation
      }
      removed?.resume(throwing: CancellationError())
    }
  }

  /// Frees a slot: hands it to the first waiting request, if any.
  private func release() {
    let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      guard !state.waiting.isEmpty else {
        state.busy -= 1
        return nil
      }
      return state.waiting.removeFirst().continuation
    }
    next?.resume()
  }
}
