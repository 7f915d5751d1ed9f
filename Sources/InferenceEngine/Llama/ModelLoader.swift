import Foundation
import Synchronization

/// Loads each GGUF file once per process and hands the same `LlamaModel` to every session.
public enum ModelLoader {
  private static let loaded = Mutex<[String: WeakModel]>([:])

  private struct WeakModel: @unchecked Sendable {
    weak var model: LlamaModel?
  }

  /// The model at `path`, loaded on a background thread the first time and shared afterwards
  /// for as long as anyone holds it.
  public static func model(at path: String) async throws -> LlamaModel {
    let key = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    if let model = loaded.withLock({ $0[key]?.model }) { return model }
    let model = try await WorkQueue(label: "ModelLoader").run { try LlamaModel(path: key) }
    return loaded.withLock { models in
      // Another task may have loaded it meanwhile; keep one copy.
      if let existing = models[key]?.model { return existing }
      models[key] = WeakModel(model: model)
      return model
    }
  }
}
