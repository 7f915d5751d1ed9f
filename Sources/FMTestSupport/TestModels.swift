import Foundation
import InferenceEngine

/// The real models tests use: `smollm2-135m`, fetched by the set-up step (`scripts/setup`).
public enum TestModels {
  /// Path of the small bundled model.
  public static var smolLM2Path: String {
    if let path = ProcessInfo.processInfo.environment["FM_TEST_MODEL"] { return path }
    let environment = ProcessInfo.processInfo.environment
    let cache = environment["XDG_CACHE_HOME"].map { "\($0)" } ?? "\(NSHomeDirectory())/.cache"
    let directory = environment["FM_MODELS_DIR"] ?? "\(cache)/foundationmodels-linux/models"
    return "\(directory)/smollm2-135m.gguf"
  }

  /// The loaded small model, shared by all tests in the process.
  public static func smolLM2() async throws -> LlamaModel {
    guard FileManager.default.fileExists(atPath: smolLM2Path) else {
      throw EngineError(
        .modelNotFound, "test model missing at \(smolLM2Path); run `scripts/setup smollm2-135m` first")
    }
    return try await ModelLoader.model(at: smolLM2Path)
  }
}
