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
  /// A context with the eval-callback tap it was created with (the callback cannot change).
  struct Entry: @unchecked Sendable {
    let context: OpaquePointer
    let outputLayer: OutputLayerTap
    let configuration: ContextConfiguration
  }

  private let kept = Mutex<Entry?>(nil)

  /// The kept context if it was created with `configuration`.
  func take(_ configuration: ContextConfiguration) -> Entry? {
    kept.withLock { entry in
      guard let found = entry, found.configuration == configuration else { return nil }
      entry = nil
      return found
    }
  }

  /// Keeps `entry`, emptied, or frees it when a context is already kept.
  func put(_ entry: Entry) {
    // No session owns it now: nothing may be aborted through the old owner.
    llama_set_abort_callback(entry.context, nil, nil)
    // Metadata only: emptied cells are never read, and wiping the data would cost a pass over
    // the whole cache (117 MB on Qwen 1.5B at 4,096 tokens).
    llama_memory_clear(llama_get_memory(entry.context), false)
    let rejected = kept.withLock { kept -> Entry? in
      guard kept == nil else { return entry }
      kept = entry
      return nil
    }
    if let rejected { llama_free(rejected.context) }
  }

  /// Contexts kept (0 or 1).
  var keptCount: Int { kept.withLock { $0 == nil ? 0 : 1 } }

  /// Frees the kept context; the model calls it before freeing itself.
  func drain() {
    if let entry = kept.withLock({ kept -> Entry? in
      defer { kept = nil }
      return kept
    }) {
      llama_free(entry.context)
    }
  }
}
