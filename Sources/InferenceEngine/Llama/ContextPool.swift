import CLlama
import Synchronization

/// The llama.cpp context of an ended session, kept for the next session on the same model.
///
/// Why: creating a context on Qwen 1.5B costs 50–70 ms when the allocator hands back a freed
/// context's memory and about 400 ms on memory never touched before (`fm-bench batches`
/// creates three at once: 480–500 ms each with their first decode), a noticeable share of a
/// short guided request, and apps open a fresh session per request. One context is kept; it is
/// cleared when it comes back, so a reused context holds nothing of the session before.
final class ContextPool: Sendable {
  /// The kept context. A context passes from one thread to another (from an ended session's
  /// backend to the pool, then to the next session's), but only one of them uses it at a
  /// time, which is what makes the unchecked `Sendable` sound.
  private struct Kept: @unchecked Sendable {
    var context: LlamaContext?
  }

  private let kept = Mutex(Kept())

  /// The kept context if it was created with `configuration`.
  func take(_ configuration: ContextConfiguration) -> LlamaContext? {
    kept.withLock { kept in
      guard let found = kept.context, found.configuration == configuration else { return nil }
      kept.context = nil
      return found
    }
  }

  /// Keeps `context`, emptied, in place of the context kept before, if any, which is freed.
  ///
  /// The newer one is kept so that a context is only ever freed here or by `drain()`, never
  /// by its last backend letting go of it: that could happen after the backend let go of the
  /// model, and a context must be freed before its model.
  func put(_ context: LlamaContext) {
    // No session owns it now: nothing may be aborted through the old owner.
    llama_set_abort_callback(context.handle, nil, nil)
    // Metadata only: emptied cells are never read, and wiping the data would cost a pass over
    // the whole cache (117 MB on Qwen 1.5B at 4,096 tokens).
    llama_memory_clear(context.memory, false)
    // The replaced context is freed here, outside the lock.
    _ = kept.withLock { kept in
      defer { kept.context = context }
      return kept.context
    }
  }

  /// Contexts kept (0 or 1).
  var keptCount: Int { kept.withLock { $0.context == nil ? 0 : 1 } }

  /// Frees the kept context; the model calls it before freeing itself.
  func drain() {
    _ = kept.withLock { kept in
      defer { kept.context = nil }
      return kept.context
    }
  }
}
