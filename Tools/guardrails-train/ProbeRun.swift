import Foundation
import Guardrails
import InferenceEngine
import SafetyCorpus

/// The probe's part of a training run: the embeddings of the training and held-out texts, the
/// probe (``ProbeTrainer``), and its held-out figures and cost.
struct ProbeRun {
  let trainer: Trainer
  let weights: ClassifierWeights
  let outOfFold: [[Float]]
  let modelName: String
  /// Where the probe is asked and how much it may flag.
  let settings: ProbeTrainer.Settings
  private var heldOut: [SafetyExample] = []
  private var heldOutEmbeddings: [[Float]] = []

  init(
    trainer: Trainer, weights: ClassifierWeights, outOfFold: [[Float]], modelName: String,
    settings: ProbeTrainer.Settings
  ) {
    self.trainer = trainer
    self.weights = weights
    self.outOfFold = outOfFold
    self.modelName = modelName
    self.settings = settings
  }

  /// Embeds the training and `heldOut` texts (through `cache`) and trains the probe on the
  /// training ones, in the cache's frame.
  mutating func train(heldOut: [SafetyExample], cache: inout EmbeddingCache) throws -> EmbeddingProbe {
    let embeddings = try cache.embeddings(of: trainer.texts.map(\.text) + heldOut.map(\.text))
    self.heldOut = heldOut
    heldOutEmbeddings = Array(embeddings.suffix(heldOut.count))
    return ProbeTrainer(
      trainer: trainer, embeddings: Array(embeddings.prefix(trainer.texts.count)), outOfFold: outOfFold,
      classifier: weights, modelName: modelName, frame: cache.frame, settings: settings
    ).train()
  }

  /// Prints the held-out figures of the whole cascade with `probe` as its third stage, and what
  /// the probe costs a request that reaches it (a fresh embedding, the model loaded).
  func report(_ probe: EmbeddingProbe, embedder: LlamaEmbedder) async throws {
    let cascade = GuardrailCascade(classifier: ContentClassifier(weights: weights))
    var flagged: [Bool] = []
    var probed: [String] = []
    for (example, embedding) in zip(heldOut, heldOutEmbeddings) {
      let verdict = await cascade.check(example.text, probe: probe) { _ in embedding }
      flagged.append(verdict.isViolation)
      if verdict.stage == .probe { probed.append(example.text) }
    }
    print("with the probe:")
    for line in GuardrailEvaluation(examples: heldOut, flagged: flagged).lines { print(line) }
    var times: [Double] = []
    for text in probed.prefix(50) {
      let start = ContinuousClock.now
      _ = try embedder.embedding(of: text)
      let elapsed = ContinuousClock.now - start
      times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    let median = times.isEmpty ? 0 : times.sorted()[times.count / 2] * 1000
    print(
      String(
        format: "probe: %d of %d held-out texts reach it; embedding one takes %.0f ms (median of %d)", probed.count,
        heldOut.count, median, times.count))
  }
}
