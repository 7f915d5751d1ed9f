import Foundation
import Synchronization
import Testing

@testable import Guardrails

/// The third stage: the probe's file format and how the cascade hands it a request.
@Suite struct EmbeddingProbeTests {
  let cascade: GuardrailCascade

  init() throws {
    cascade = try GuardrailCascade.shipped()
  }

  /// A probe over two-number embeddings that reads the first number alone: a text is unsafe
  /// from 0.5 on, and every request the classifier leaves open reaches it.
  func probe(bandLower: Float = 0) -> EmbeddingProbe {
    EmbeddingProbe(
      modelName: "test", weights: [1, 0], bias: 0, probeMean: 0, probeSpread: 1, requestMean: 0, requestSpread: 1,
      probeShare: 1, threshold: 0.5, bandLower: bandLower)
  }

  @Test func theFileRoundTripsAndDamageIsAnError() throws {
    let original = probe(bandLower: 0.25)
    #expect(try EmbeddingProbe(data: original.data) == original)
    #expect(throws: ClassifierWeights.FormatError.self) { try EmbeddingProbe(data: original.data.dropLast(3)) }
    #expect(throws: ClassifierWeights.FormatError.self) { try EmbeddingProbe(data: original.data + Data([0])) }
    #expect(throws: ClassifierWeights.FormatError.self) { try EmbeddingProbe(data: Data("FMGC".utf8) + original.data) }
  }

  @Test func aFrameRoundTripsAndAFileBeforeFramesReadsAsMeanPooled() throws {
    var framed = probe()
    framed.frame = EmbeddingProbe.Frame(prefix: "<|im_start|>user\nMessage: ", suffix: "\nHarmful?<|im_end|>\n")
    #expect(try EmbeddingProbe(data: framed.data) == framed)
    // Version 1: no frame lengths after the model's name.
    let unframed = probe()
    var bytes = [UInt8](unframed.data)
    #expect(bytes[4..<8] == [2, 0, 0, 0])
    bytes[4] = 1
    let nameEnd = 8 + 4 + unframed.modelName.utf8.count
    #expect(bytes[nameEnd..<nameEnd + 8].allSatisfy { $0 == 0 })
    bytes.removeSubrange(nameEnd..<nameEnd + 8)
    let old = try EmbeddingProbe(data: Data(bytes))
    #expect(old == unframed && old.frame == nil)
  }

  @Test func theShippedProbeReadsTheTestModelsEmbeddings() throws {
    let shipped = try EmbeddingProbe.shipped.get()
    #expect(shipped.modelName == "smollm2-135m")
    #expect(shipped.weights.count == 576)
    #expect(shipped.frame?.prefix.contains("<|im_start|>") == true)
    #expect(shipped.threshold.isFinite && shipped.bandLower > 0 && shipped.bandLower < 1)
    #expect(shipped.weights.allSatisfy { $0.isFinite } && shipped.weights.contains { $0 != 0 })
  }

  @Test func theScoreMixesTheProbeAndTheRequestHead() {
    var mixed = probe()
    mixed.probeShare = 0.5
    let low = mixed.score(embedding: [0, 0], requestProbability: 0.5)
    #expect(mixed.score(embedding: [1, 0], requestProbability: 0.5) > low)
    #expect(mixed.score(embedding: [0, 0], requestProbability: 0.9) > low)
    #expect(mixed.score(embedding: [0, 5], requestProbability: 0.5) == low)
  }

  @Test func aRequestInTheBandIsDecidedByTheProbe() async {
    let text = "What is the capital of France?"
    let unsafe = await cascade.check(text, probe: probe()) { _ in [1, 0] }
    #expect(unsafe.violation != nil)
    #expect(unsafe.stage == .probe)
    let safe = await cascade.check(text, probe: probe()) { _ in [0, 0] }
    #expect(safe.violation == nil)
    #expect(safe.stage == .probe)
  }

  @Test func belowTheBandAndOnPatternsTheProbeIsNotAsked() async {
    let asked = Mutex(0)
    let embed: (String) async throws -> [Float] = { _ in
      asked.withLock { $0 += 1 }
      return [1, 0]
    }
    let allowed = await cascade.check("What is the capital of France?", probe: probe(bandLower: 0.99), embed: embed)
    #expect(allowed.violation == nil)
    let blocked = await cascade.check("Granular mango serpent", probe: probe(), embed: embed)
    #expect(blocked.violation == .testPhrase)
    #expect(asked.withLock { $0 } == 0)
  }

  @Test func aProbeThatFailsLeavesTheDecisionToTheClassifier() async {
    struct Failure: Error {}
    let text = "What is the capital of France?"
    let verdict = await cascade.check(text, probe: probe()) { _ in throw Failure() }
    #expect(verdict == cascade.assess(text).verdictWithoutJudge)
  }
}
