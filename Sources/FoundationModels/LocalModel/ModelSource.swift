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
    case .default: ModelCatalog.defaultChatModelName(environment: ProcessInfo.processInfo.environment)
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
  /// - Throws: `ModelStoreError` with advice for app developers when the model cannot be found.
  func load(keepAlive: KeepAlive) async throws -> (model: any TokenModel, lease: ModelLease?) {
    if case .loaded(let model) = self { return (model, nil) }
    let resolved: ResolvedModel
    do {
      resolved = try ModelStore().resolve(reference ?? "")
    } catch let error as ModelStoreError {
      throw error.advisingHowToFetch
    }
    let lease = try await ModelLoader.lease(at: resolved.path.path, keepAlive: keepAlive)
    return (lease.model, lease)
  }
}

extension ModelStoreError {
  /// The same error, its message phrased for a developer whose app found no model: how to
  /// fetch one, with `fm` or with this project's set-up script.
  ///
  /// `fm respond` and the other commands that run a model print this message as it is.
  fileprivate var advisingHowToFetch: ModelStoreError {
    guard let modelName else { return self }
    switch code {
    case .modelNotDownloaded:
      return ModelStoreError(
        code,
        "model '\(modelName)' is not downloaded yet; fetch it with: fm models pull \(modelName)"
          + "  (or, in a package that uses this one: swift package --allow-network-connections all setup \(modelName))",
        modelName: modelName)
    case .unknownModel:
      let names = ModelCatalog.all.map(\.name).joined(separator: ", ")
      return ModelStoreError(
        code,
        "unknown model '\(modelName)': use one of \(names) (fetch with: fm models pull NAME), "
          + "a Hugging Face model hf:OWNER/REPO[:QUANT] or a path to a .gguf file",
        modelName: modelName)
    default:
      return self
    }
  }
}
