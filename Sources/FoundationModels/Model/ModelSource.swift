import Foundation
import InferenceEngine

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

  func load() async throws -> any TokenModel {
    if case .loaded(let model) = self { return model }
    let resolved = try ModelStore().resolve(reference ?? "")
    return try await ModelLoader.model(at: resolved.path.path)
  }
}
