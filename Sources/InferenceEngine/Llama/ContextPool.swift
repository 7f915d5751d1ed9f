import CLlama
import Synchronization

/// The llama.cpp context of an ended session, kept for the next session on the same model.
///
/// Why: creating a context on Qwen 1.5B costs 50–70 ms when the allocator hands back a freed
/// context's memory and about 400 ms on memory never touched before (`fm-bench batches`
/// creates three at once: 480–500 ms each with their first decode), a noticeable share of a
/// short guided request, and apps open a fresh session per request. One context is kept, with
/// its cache: the next session finds the tokens the last one left and reuses their common
/// prefix, so a new session with the same instructions and tools (the pattern Apple
/// recommends, one session per request) evaluates only what differs. Only identical leading
/// tokens are reused, which give the same cache whichever session evaluated them.
final class ContextPool: Sendable {
  /// The kept context. A context passes from one thread to another (from an ended session's
  /// backend to the pool, then to the next session's), but only one of them uses it at a
  /// time, which is what makes the unchecked `Sendable` sound.
  private struct Kept: @unchecked Sendable {
    var context: LlamaContext?
    /// The tokens the kept context's cache holds, in order from position 0.
    var tokens: [Token] = []
  }

  private let kept = Mutex(Kept())

  /// The kept context if it was created with `configuration`, and the tokens its cache holds.
  func take(_ configuration: ContextConfiguration) -> (context: LlamaContext, tokens: [Token])? {
    kept.withLock { kept in
      guard let found = kept.context, found.configuration == configuration else { return nil }
      kept.context = nil
      defer { kept.tokens = [] }
      return (found, kept.tokens)
    }
  }

  /// Keeps `context`, whose cache holds `tokens`, in place of the context kept before, if any,
  /// which is freed.
  ///
  /// The newer one is kept so that a context is only ever freed here or by `drain()`, never
  /// by its last backend letting go of it: that could happen after the backend let go of the
  /// model, and a context must be freed before its model.
  func put(_ context: LlamaContext, holding tokens: [Token]) {
    // No session owns it now: nothing may be aborted through the old owner.
    llama_set_abort_callback(context.handle, nil, nil)
    // The replaced context is freed here, outside the lock.
    _ = kept.withLock { kept in
      defer { (kept.context, kept.tokens) = (context, tokens) }
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
