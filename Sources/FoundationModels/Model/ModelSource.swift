import Foundation
import InferenceEngine
import ModelStore

/// Where a `SystemLanguageModel`'s weights come from.
enum ModelSource: Sendable {
  /// The default chat model: `$FM_MODEL` when set, else the catalogue's default.
  case `default`
  /// A catalogue name or a GGUF path.
  case reference(String)
  /// An engine model already in memory (tests, embedding).
  case loaded(any TokenModel)

  var reference: String? {
    switch self {
    case .default:
      ProcessInfo.processInfo.environment["FM_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        ?? ModelCatalog.defaultChatModel.name
    case .reference(let reference): reference
    case .loaded: nil
    }
  }

  /// A name for messages and the app's status line.
  var displayName: String {
    switch self {
    case .loaded: "in-memory model"
    default: reference ?? "model"
    }
  }

  var isPresent: Bool {
    guard let reference else { return true }
    return (try? ModelStore().resolve(reference)) != nil
  }

  /// The engine model, loading it if it is not in memory.
  /// - Returns: the model and the lease that keeps it loaded while it is held (nil for a model
  ///   already in memory, which its owner keeps).
  func load(keepAlive: KeepAlive) async throws -> (model: any TokenModel, lease: ModelLease?) {
    if case .loaded(let model) = self { return (model, nil) }
    let resolved = try ModelStore().resolve(reference ?? "")
    let lease = try await ModelLoader.lease(at: resolved.path.path, keepAlive: keepAlive)
    return (lease.model, lease)
  }
}
