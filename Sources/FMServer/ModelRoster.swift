import Foundation
import FoundationModels
import InferenceEngine
import Synchronization

/// The models one `fm serve` serves, by id, and which of them are in memory.
///
/// A model loads on its first request (a fresh `ServedModel`: its batched context and weights)
/// and stays while requests use it and for `keepAlive` after the last; then it is dropped, and
/// its memory freed once requests still holding it finish. At most `maxLoaded` models stay
/// loaded: a request for another first unloads the loaded model idle longest, and when every
/// loaded model is busy it is refused (503, as a full queue). Requests to different models run
/// at once, each on its own model's slots.
public final class ModelRoster: Sendable {
  /// One servable model: the id clients name it by, and the model (not yet batched).
  public struct Entry: Sendable {
    public var id: String
    public var model: SystemLanguageModel
    /// The guardrails its requests are checked with (`--guardrails`); nil checks nothing. The
    /// server checks by this alone: `model.guardrails` is for sessions on the model.
    public var guardrails: SystemLanguageModel.Guardrails?

    public init(id: String, model: SystemLanguageModel, guardrails: SystemLanguageModel.Guardrails? = nil) {
      self.id = id
      self.model = model
      self.guardrails = guardrails
    }
  }

  private struct Loaded {
    var served: ServedModel
    var active = 0
    var lastUsed = ContinuousClock.now
    /// Changes with every use, so that a stale keep-alive expiry does nothing.
    var generation = 0
  }

  private struct State {
    var loaded: [String: Loaded] = [:]
    /// What the decodes of unloaded models did, so that the metrics' counters never go back.
    var retired = BatchStatistics()
  }

  let entries: [Entry]
  /// Requests that generate at once on each model (`--parallel`).
  let slots: Int
  /// Requests that may wait for a slot of each model (`--queue`).
  let queueLimit: Int
  /// The most models in memory at once; nil for no bound.
  let maxLoaded: Int?
  /// Bytes of host memory each model keeps the caches of slots lent to other conversations in
  /// (`--cache-ram`, `BatchingConfiguration.savedCacheBytes`).
  let savedCacheBytes: Int
  /// How long an idle model stays loaded.
  let keepAlive: SystemLanguageModel.KeepAlive
  private let state = Mutex(State())

  /// - Parameters:
  ///   - entries: the models, the first the default (also named `system`); ids must differ.
  ///   - keepAlive: how long a model stays loaded after its last request (`forever` keeps
  ///     every model loaded once used).
  ///   - savedCacheBytes: host memory per model for the caches of slots lent to other
  ///     conversations; nil for `BatchingConfiguration.defaultSavedCacheBytes`.
  public init(
    _ entries: [Entry], slots: Int, queue: Int, maxLoaded: Int? = nil,
    keepAlive: SystemLanguageModel.KeepAlive = .forever, savedCacheBytes: Int? = nil
  ) {
    self.savedCacheBytes = savedCacheBytes ?? BatchingConfiguration.defaultSavedCacheBytes
    precondition(!entries.isEmpty && Set(entries.map(\.id)).count == entries.count, "distinct model ids")
    self.entries = entries
    self.slots = slots
    queueLimit = queue
    self.maxLoaded = maxLoaded
    self.keepAlive = keepAlive
  }

  /// One model, served as `id`.
  public convenience init(id: String, model: SystemLanguageModel, slots: Int, queue: Int) {
    self.init([Entry(id: id, model: model)], slots: slots, queue: queue)
  }

  /// The default model's id.
  var defaultID: String { entries[0].id }

  /// The id of the model `name` names: an id, or `system` (Apple's name for the on-device
  /// model, as in Apple's `fm serve`) for the first.
  /// - Throws: `APIError` 404 naming the served models.
  func id(named name: String) throws -> String {
    if name == "system" { return defaultID }
    guard entries.contains(where: { $0.id == name }) else {
      let served = entries.map { "'\($0.id)'" }.joined(separator: ", ")
      var error = Self.unknown(name)
      error.message += "; this server serves \(served) (the first also named 'system')"
      throw error
    }
    return name
  }

  /// Runs `body` on the model `name` names, loading it first where it is not in memory.
  /// - Throws: `APIError` 404 for an unknown model, 503 when it would load past `maxLoaded`
  ///   and every loaded model is busy; what `body` throws.
  func withModel<T>(_ name: String, _ body: (ServedModel) async throws -> T) async throws -> T {
    let served = try acquire(try id(named: name))
    defer { release(served.id) }
    return try await body(served)
  }

  /// Loads the default model now, so that its first request does not wait for it.
  public func loadDefault() async throws {
    try await withModel(defaultID) { try await $0.load() }
  }

  /// The models in memory now, by id.
  var loaded: [String: ServedModel] {
    state.withLock { $0.loaded.mapValues(\.served) }
  }

  /// The decodes of every model loaded since the start.
  var batchStatistics: BatchStatistics {
    state.withLock { state in
      state.loaded.values.map(\.served.batchStatistics).reduce(state.retired, +)
    }
  }

  private func acquire(_ id: String) throws -> ServedModel {
    var evicted: ServedModel?
    // Freed after the lock: freeing a model takes time.
    defer { withExtendedLifetime(evicted) {} }
    return try state.withLock { state in
      if state.loaded[id] == nil, let entry = entries.first(where: { $0.id == id }) {
        if let maxLoaded, state.loaded.count >= maxLoaded {
          let idle = state.loaded.filter { $0.value.active == 0 }.min { $0.value.lastUsed < $1.value.lastUsed }
          guard let idle else {
            throw APIError(
              .serviceUnavailable,
              "The server is busy: \(state.loaded.count) models are loaded (--max-loaded) and all are in use; retry later",
              code: "models_busy", headers: [("Retry-After", "1")])
          }
          evicted = unload(idle.key, in: &state)
        }
        state.loaded[id] = Loaded(
          served: ServedModel(
            id: id, model: entry.model, slots: slots, queue: queueLimit, savedCacheBytes: savedCacheBytes,
            guardrails: entry.guardrails))
      }
      guard var loaded = state.loaded[id] else { throw Self.unknown(id) }
      loaded.active += 1
      loaded.generation += 1
      state.loaded[id] = loaded
      return loaded.served
    }
  }

  private func release(_ id: String) {
    var evicted: ServedModel?
    let expiry: (Duration, Int)? = state.withLock { state in
      guard var loaded = state.loaded[id] else { return nil }
      loaded.active -= 1
      loaded.lastUsed = .now
      state.loaded[id] = loaded
      guard loaded.active == 0, case .duration(let period) = keepAlive else { return nil }
      if period <= .zero {
        evicted = unload(id, in: &state)
        return nil
      }
      return (period, loaded.generation)
    }
    withExtendedLifetime(evicted) {}  // freed here, after the lock
    guard let (period, generation) = expiry else { return }
    Task.detached { [weak self] in
      try? await Task.sleep(for: period)
      let expired = self?.state.withLock { state -> ServedModel? in
        guard let loaded = state.loaded[id], loaded.active == 0, loaded.generation == generation else { return nil }
        return self?.unload(id, in: &state)
      }
      withExtendedLifetime(expired) {}  // freed here, after the lock
    }
  }

  /// Stops keeping `id` loaded; returns it, for the caller to drop after the lock.
  private func unload(_ id: String, in state: inout State) -> ServedModel? {
    guard let loaded = state.loaded.removeValue(forKey: id) else { return nil }
    state.retired = state.retired + loaded.served.batchStatistics
    return loaded.served
  }

  private static func unknown(_ id: String) -> APIError {
    APIError(.notFound, "The model '\(id)' does not exist", param: "model", code: "model_not_found")
  }
}

extension BatchStatistics {
  /// Two models' decodes together.
  static func + (lhs: BatchStatistics, rhs: BatchStatistics) -> BatchStatistics {
    var sum = lhs
    sum.decodes += rhs.decodes
    sum.evaluations += rhs.evaluations
    sum.tokens += rhs.tokens
    sum.widestDecode = max(lhs.widestDecode, rhs.widestDecode)
    sum.sequences += rhs.sequences
    sum.cacheCopies += rhs.cacheCopies
    sum.savedCaches += rhs.savedCaches
    sum.restoredCaches += rhs.restoredCaches
    sum.decodeSeconds += rhs.decodeSeconds
    sum.draftTokens += rhs.draftTokens
    sum.confirmedDraftTokens += rhs.confirmedDraftTokens
    return sum
  }
}
