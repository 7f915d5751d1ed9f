import Foundation
import Guardrails
import InferenceEngine
import ModelStore
import Synchronization

/// The guardrails' third stage for every model, local or plugged in: the shipped
/// ``EmbeddingProbe`` reading its model's embedding of a request in the probe's band, in the
/// probe's frame.
///
/// The probe's model (the catalogue's smallest, `smollm2-135m`) is used when it is in the model
/// store; a check never fetches it (`fm models pull smollm2-135m` does). Without it, the texts
/// in the classifier's uncertain band go to the session model's yes-or-no judge, as before the
/// probe. The model is loaded on the first text that reaches the probe, once per process, with
/// a small context of its own. The embeddings of the last texts are remembered (up to
/// ``cacheLimit``), so instructions or a conversation sent again are not embedded again.
final class GuardrailProbe: Sendable {
  let probe: EmbeddingProbe
  private let modelPath: String
  private let embedder = Mutex<Result<LlamaEmbedder, any Error>?>(nil)
  private let embeddings = Mutex<[String: [Float]]>([:])
  static let cacheLimit = 256

  init(probe: EmbeddingProbe, modelPath: String) {
    self.probe = probe
    self.modelPath = modelPath
  }

  /// The probe with its model from the default model store, or nil when the model is not there.
  static let shared: GuardrailProbe? = {
    guard let probe = try? EmbeddingProbe.shipped.get(), let model = ModelCatalog.model(named: probe.modelName)
    else { return nil }
    let store = ModelStore(directory: ModelStore.defaultDirectory(environment: ProcessInfo.processInfo.environment))
    guard store.isPresent(model) else { return nil }
    return GuardrailProbe(probe: probe, modelPath: store.path(for: model).path)
  }()

  /// The text's embedding on the probe's model.
  /// - Throws: the engine's error when the model cannot be loaded or the text evaluated.
  func embedding(of text: String) throws -> [Float] {
    if let known = embeddings.withLock({ $0[text] }) { return known }
    let loaded = embedder.withLock { stored in
      if let stored { return stored }
      let made = Result {
        try LlamaEmbedder(model: LlamaModel(path: modelPath), reading: EmbeddingReading(probe.frame))
      }
      stored = made
      return made
    }
    let embedding = try loaded.get().embedding(of: text)
    embeddings.withLock { embeddings in
      if embeddings.count >= Self.cacheLimit { embeddings.removeAll() }
      embeddings[text] = embedding
    }
    return embedding
  }
}

extension EmbeddingReading {
  /// How a probe with `frame` reads a request: in the frame, or mean-pooled where there is none.
  @_spi(Engine) public init(_ frame: EmbeddingProbe.Frame?) {
    self = frame.map { .framed(prefix: $0.prefix, suffix: $0.suffix) } ?? .mean
  }
}
