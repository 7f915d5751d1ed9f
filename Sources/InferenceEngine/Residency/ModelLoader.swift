import Foundation
import Synchronization

/// Loads each GGUF file once per process, hands the same `LlamaModel` to every session, and
/// keeps it loaded between sessions for their keep-alive period (see `KeepAlive`).
public enum ModelLoader {
  private static let residency = Mutex(ModelResidency<LlamaModel>())
  /// The task that ends each model's keep-alive period, while one is pending.
  private static let expiries = Mutex<[String: Task<Void, Never>]>([:])

  /// Leases the model at `path`, loading it on a background thread if it is not in memory.
  ///
  /// The model stays loaded while the lease lives; when the last lease on it ends, it stays
  /// for `keepAlive` more (the lease that ends last decides).
  public static func lease(at path: String, keepAlive: KeepAlive = .processDefault) async throws -> ModelLease {
    let key = key(path)
    if let model = residency.withLock({ $0.lease(key) }) {
      return ModelLease(model: model, key: key, keepAlive: keepAlive)
    }
    let loaded = try await WorkQueue(label: "ModelLoader").run { try LlamaModel(path: key) }
    // Another task may have loaded it meanwhile; keep one copy (the other is freed here).
    let model = residency.withLock { $0.add(loaded, key: key) }
    return ModelLease(model: model, key: key, keepAlive: keepAlive)
  }

  /// The model at `path`, loaded on a background thread the first time and shared afterwards;
  /// it stays loaded while the caller holds it and for the default keep-alive period after.
  public static func model(at path: String) async throws -> LlamaModel {
    try await lease(at: path).model
  }

  /// Unloads every model that no session uses now, without waiting for its keep-alive period
  /// to end.
  ///
  /// Models in use stay; they are unloaded by their keep-alive when their sessions end.
  public static func releaseIdleModels() {
    _ = residency.withLock { $0.releaseIdle() }  // the models are freed here, after the lock
  }

  /// How many times the model at `path` has been loaded in this process.
  public static func loadCount(at path: String) -> Int {
    residency.withLock { $0.loads[key(path)] ?? 0 }
  }

  /// Whether the model at `path` is in memory now.
  public static func isLoaded(at path: String) -> Bool {
    residency.withLock { $0.isLoaded(key(path)) }
  }

  /// One key per file, whatever path names it.
  private static func key(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  fileprivate static func release(_ key: String, keepAlive: KeepAlive) {
    // A model unloaded at once is freed when `release` returns, after the lock.
    let action = residency.withLock { $0.release(key, keepAlive: keepAlive) }.action
    guard case .expire(let delay, let generation) = action else { return }
    let expiry = Task.detached(priority: .utility) {
      guard (try? await Task.sleep(for: delay)) != nil else { return }
      _ = residency.withLock { $0.expire(key, generation: generation) }  // freed after the lock
    }
    // One pending expiry per model: an app that opens a session per request would otherwise
    // leave one sleeping task behind per request for the whole period.
    expiries.withLock { $0.updateValue(expiry, forKey: key) }?.cancel()
  }
}

/// A session's claim on a loaded model: the model stays loaded while the lease lives, and for
/// the lease's keep-alive period after the last lease on it ends.
public final class ModelLease: Sendable {
  public let model: LlamaModel
  private let key: String
  private let keepAlive: KeepAlive

  fileprivate init(model: LlamaModel, key: String, keepAlive: KeepAlive) {
    self.model = model
    self.key = key
    self.keepAlive = keepAlive
  }

  deinit {
    ModelLoader.release(key, keepAlive: keepAlive)
  }
}
