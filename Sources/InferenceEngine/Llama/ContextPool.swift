import CLlama
import Synchronization

/// The llama.cpp contexts of ended sessions, kept for the next sessions on the same model: one
/// per configuration (context size, batch, threads), the most recently returned few.
///
/// Why: creating a context is a noticeable share of a short guided request — less when the
/// allocator hands back a freed context's memory, several times more on memory never touched before
/// (`fm-bench batches` measures both) — and apps open a fresh session per request. A context is
/// kept with the part of its cache that was evaluated prompt part by prompt part
/// (`PartBoundaries`): the next session reuses what it has in common with it, so a new session
/// with the same instructions and tools (the pattern Apple recommends, one session per request)
/// evaluates only what differs, and gets exactly what a fresh cache would give.
///
/// Why one per configuration rather than one in all: a context of another configuration that
/// comes back between two sessions (the guardrails' judge, which has a smaller context of its
/// own; a session of another part of the app; one whose engine was let go of a moment late,
/// such as a prewarm's or a cancelled turn's) would otherwise replace the context the ended
/// session left, and the next session would find nothing and evaluate everything.
final class ContextPool: Sendable {
  /// A kept context.
  ///
  /// A context passes from one thread to another (from an ended session's backend to the pool,
  /// then to the next session's), but only one of them uses it at a time, which is what makes
  /// the unchecked `Sendable` sound.
  private struct Kept: @unchecked Sendable {
    var context: LlamaContext
    /// The tokens the kept context's cache holds, in order from position 0.
    var tokens: [Token]
    var boundaries: PartBoundaries
  }

  /// The most contexts kept, of as many configurations: beyond it, the one returned longest
  /// ago is freed.
  static let maximumKept = 4

  /// The kept contexts, the one returned longest ago first; at most one per configuration.
  private let kept = Mutex<[Kept]>([])

  /// The kept context created with `configuration`, if any, the tokens its cache holds and
  /// where their prompt parts end.
  func take(_ configuration: ContextConfiguration) -> (
    context: LlamaContext, tokens: [Token], boundaries: PartBoundaries
  )? {
    kept.withLock { kept in
      guard let index = kept.firstIndex(where: { $0.context.configuration == configuration }) else { return nil }
      let found = kept.remove(at: index)
      return (found.context, found.tokens, found.boundaries)
    }
  }

  /// Keeps `context` in place of a context kept before with the same configuration, which is
  /// freed, as is the one returned longest ago when more than `maximumKept` are kept.
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
    let prefix = Array(tokens.prefix(boundaries.last))
    // llama_memory_seq_rm(seq 0, [count, ∞)): removing a tail never fails for a KV cache.
    _ = llama_memory_seq_rm(context.memory, 0, Int32(prefix.count), -1)
    // The replaced contexts are freed here, outside the lock.
    _ = kept.withLock { kept in
      var replaced = kept.filter { $0.context.configuration == context.configuration }
      kept.removeAll { $0.context.configuration == context.configuration }
      kept.append(Kept(context: context, tokens: prefix, boundaries: boundaries))
      if kept.count > Self.maximumKept { replaced += kept.prefix(kept.count - Self.maximumKept) }
      kept.removeFirst(max(0, kept.count - Self.maximumKept))
      return replaced
    }
  }

  /// Contexts kept (0 to `maximumKept`).
  var keptCount: Int { kept.withLock { $0.count } }

  /// Frees the kept contexts; the model calls it before freeing itself.
  func drain() {
    _ = kept.withLock { kept in
      defer { kept = [] }
      return kept
    }
  }
}
