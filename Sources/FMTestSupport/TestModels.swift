import Foundation
import InferenceEngine
import ModelStore

/// The real models tests use: `smollm2-135m`, fetched by the set-up step (`scripts/setup`).
public enum TestModels {
  /// Path of the small bundled model in the model cache (or `$FM_TEST_MODEL`).
  public static var smolLM2Path: String {
    if let path = ProcessInfo.processInfo.environment["FM_TEST_MODEL"] { return path }
    return ModelStore().path(for: ModelCatalog.defaultTestModel).path
  }

  /// Gemma 3 270M (`gemma3-270m`), a base model: the catalogue's model that is not ChatML,
  /// chatted with through Gemma's template (`gemmaTemplate`).
  public static var gemma3Path: String { ModelStore().path(for: ModelCatalog.gemma3_270M).path }

  public static var gemma3IsPresent: Bool { FileManager.default.fileExists(atPath: gemma3Path) }

  /// Gemma's chat template, from the pinned llama.cpp's `models/templates`.
  public static func gemmaTemplate() throws -> String { try ChatTemplateFiles.source("google-gemma-2-2b-it.jinja") }

  /// The loaded small model, shared by all tests in the process.
  public static func smolLM2() async throws -> LlamaModel {
    guard FileManager.default.fileExists(atPath: smolLM2Path) else {
      throw EngineError(
        .modelNotFound, "test model missing at \(smolLM2Path); run `scripts/setup smollm2-135m` first")
    }
    return try await ModelLoader.model(at: smolLM2Path)
  }
}
