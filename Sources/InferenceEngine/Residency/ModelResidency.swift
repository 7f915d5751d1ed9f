/// Which loaded models stay in memory: the bookkeeping of `ModelLoader`, without clocks,
/// locks or llama.cpp, so it can be tested on its own.
///
/// A model is *leased* while a session uses it. When its last lease ends it stays *resident*
/// (held here) for its keep-alive period; a lease taken meanwhile keeps it. Whatever this
/// returns for freeing must be dropped outside the caller's lock: freeing a model frees its
/// llama.cpp context and weights, which takes time.
struct ModelResidency<Model: AnyObject> {
  /// What the loader must do after a lease ends.
  enum Action: Equatable {
    /// Nothing: the model is still leased, or kept forever.
    case none
    /// Call `expire(_:generation:)` after the delay.
    case expire(after: Duration, generation: Int)
  }

  private struct Entry {
    /// The model while anyone holds it (a session, a caller of `ModelLoader.model(at:)`).
    weak var model: Model?
    /// The strong reference that keeps the model loaded between sessions.
    var resident: Model?
    var leases = 0
    /// Changes whenever the model is leased again, so a stale expiry does nothing.
    var generation = 0
  }

  private var entries: [String: Entry] = [:]
  /// Models loaded so far, by key.
  private(set) var loads: [String: Int] = [:]

  /// Leases the model at `key` if it is still in memory.
  mutating func lease(_ key: String) -> Model? {
    guard let model = entries[key]?.model else { return nil }
    entries[key]?.resident = model
    entries[key]?.leases += 1
    entries[key]?.generation += 1
    return model
  }

  /// Records a model just loaded and leases it; when another copy was added meanwhile, leases
  /// that one instead (the caller drops its own copy).
  mutating func add(_ model: Model, key: String) -> Model {
    if let existing = lease(key) { return existing }
    entries[key] = Entry(model: model, resident: model, leases: 1)
    loads[key, default: 0] += 1
    return model
  }

  /// Ends a lease.
  /// - Returns: what to do next, and the model to free now (when `keepAlive` is zero).
  mutating func release(_ key: String, keepAlive: KeepAlive) -> (action: Action, free: Model?) {
    guard var entry = entries[key], entry.leases > 0 else { return (.none, nil) }
    entry.leases -= 1
    defer { entries[key] = entry }
    guard entry.leases == 0 else { return (.none, nil) }
    switch keepAlive {
    case .forever:
      return (.none, nil)
    case .duration(let duration) where duration <= .zero:
      let model = entry.resident
      entry.resident = nil
      return (.none, model)
    case .duration(let duration):
      entry.generation += 1
      return (.expire(after: duration, generation: entry.generation), nil)
    }
  }

  /// The keep-alive period that started at `generation` is over.
  /// - Returns: the model to free, unless it was leased again meanwhile.
  mutating func expire(_ key: String, generation: Int) -> Model? {
    guard let entry = entries[key], entry.leases == 0, entry.generation == generation else { return nil }
    entries[key]?.resident = nil
    return entry.resident
  }

  /// Stops keeping every model that no lease holds.
  /// - Returns: the models to free.
  mutating func releaseIdle() -> [Model] {
    var freed: [Model] = []
    for key in entries.keys where entries[key]?.leases == 0 {
      if let model = entries[key]?.resident { freed.append(model) }
      entries[key]?.resident = nil
      entries[key]?.generation += 1
    }
    return freed
  }

  /// Whether the model at `key` is in memory (leased, resident, or held by someone).
  func isLoaded(_ key: String) -> Bool {
    entries[key]?.model != nil
  }
}
