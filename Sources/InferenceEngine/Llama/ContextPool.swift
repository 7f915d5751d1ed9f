import CLlama
import Synchronization

/// The llama.cpp context of an ended session, kept for the next session on the same model.
///
/// Why: creating a context is a noticeable share of a short guided request — less when the
/// allocator hands back a freed context's memory, several times more on memory never touched before
/// (`fm-bench batches` measures both) — and apps open a fresh session per request. One context is
/// kept, with the part of its cache that was evaluated prompt part by prompt part
/// (`PartBoundaries`): the next session reuses what it has in common with it, so a new session with
/// the same instructions and tools (the pattern Apple recommends, one session per request)
/// evaluates only what differs, and gets exactly what a fresh cache would give.
final class ContextPool: Sendable {
  /// The kept context.
  ///
  /// A context passes from one thread to another (from an ended session's backend to the pool, then
  /// to the next session's), but only one of them uses it at a time, which is what makes the
  /// unchecked `Sendable` sound.
  private struct Kept: @unchecked Sendable {
    var context: LlamaContext?
    /// The tokens the kept context's cache holds, in order from position 0.
    var tokens: [Token] = []
    var boundaries = PartBoundaries()
  }

  private let kept = Mutex(Kept())

  /// The kept context if it was created with `configuration`, the tokens its cache holds and
  /// where their prompt parts end.
  func take(_ configuration: ContextConfiguration) -> (
    context: LlamaContext, tokens: [Token], boundaries: PartBoundaries
  )? {
    kept.withLock { kept in
      guard let found = kept.context, found.configuration == configuration else { return nil }
      kept.context = nil
      defer { (kept.tokens, kept.boundaries) = ([], PartBoundaries()) }
      return (found, kept.tokens, kept.boundaries)
    }
  }

  /// Keeps `context` in place of the context kept before, if any, which is freed.
  ///
  /// Of the `tokens` its cache holds, only those up to the last of `boundaries` stay: what follows
  /// (a session's replies, evaluated a token or a few at a time) is dropped.
  ///
  /// The newer one is kept so that a context is only ever freed here or by `drain()`, never
  /// by its last backend letting go of it: that could happen after the backend let go of the
  /// model, and a context must be freed before its model.
  func put(_ context: LlamaContext, holding tokens: [Token], boundaries: PartBoundaries) {
    // No session owns it now: nothing may be aborted through the old owner.
    llama_set_abort_callback(context.handle, nil, nil)
    let kept = Array(tokens.prefix(boundaries.last))
    // llama_memory_seq_rm(seq 0, [count, ∞)): removing a tail never fails for a KV cache.
    _ = llama_memory_seq_rm(context.memory, 0, Int32(kept.count), -1)
    // The replaced context is freed here, outside the lock.
    _ = self.kept.withLock { slot in
      defer { (slot.context, slot.tokens, slot.boundaries) = (context, kept, boundaries) }
      return slot.context
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
