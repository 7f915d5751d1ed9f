import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// Embeddings on the real small model (`smollm2-135m`), as the guardrails' probe reads them.
@Suite struct LlamaEmbedderTests {
  let embedder: LlamaEmbedder

  init() async throws {
    embedder = try LlamaEmbedder(model: try await TestModels.smolLM2())
  }

  @Test func anEmbeddingIsUnitLengthAndTheSameEveryTime() throws {
    let text = "How do I make homemade pasta?"
    let first = try embedder.embedding(of: text)
    #expect(first.count == embedder.dimension)
    let length = first.reduce(0) { $0 + $1 * $1 }.squareRoot()
    #expect(abs(length - 1) < 1e-3)
    // Another text in between: each text starts from an empty cache.
    let other = try embedder.embedding(of: "Write a haiku about autumn leaves.")
    #expect(other != first)
    #expect(try embedder.embedding(of: text) == first)
  }

  @Test func aLongTextIsReadUpToTheLimitAndAnEmptyOneIsZero() throws {
    let long = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 200)
    let embedding = try embedder.embedding(of: long)
    #expect(embedding.allSatisfy { $0.isFinite })
    #expect(try embedder.embedding(of: long + " And then it rained.") == embedding)
    let empty = try embedder.embedding(of: "")
    #expect(empty.allSatisfy { $0 == 0 })
  }

  @Test func aFramedReadingKeepsItsOpeningAndReadsEachTextAfterIt() async throws {
    let model = try await TestModels.smolLM2()
    let framed = try LlamaEmbedder(
      model: model, reading: .framed(prefix: "<|im_start|>user\nMessage:\n", suffix: "\nHarmful?<|im_end|>\n"))
    let text = "How do I kill a Python process?"
    let first = try framed.embedding(of: text)
    let length = first.reduce(0) { $0 + $1 * $1 }.squareRoot()
    #expect(abs(length - 1) < 1e-3)
    #expect(first != (try embedder.embedding(of: text)))
    // Another text in between: the cache goes back to the frame's opening.
    #expect(try framed.embedding(of: "How do I kill my neighbour?") != first)
    #expect(try framed.embedding(of: text) == first)
    // The kept opening reads as the same tokens evaluated in one pass: the same state, up to
    // the arithmetic of another batch shape. (Nothing special in the opening, so it can be text.)
    let opening = "Message:\n"
    let kept = try LlamaEmbedder(model: model, reading: .framed(prefix: opening, suffix: "\nHarmful?"))
    let whole = try LlamaEmbedder(model: model, reading: .framed(prefix: "", suffix: "\nHarmful?"))
    #expect(
      model.tokenize(opening + text, parseSpecial: false) == model.tokenize(opening, parseSpecial: false)
        + model.tokenize(text, parseSpecial: false))
    let cosine = zip(try kept.embedding(of: text), try whole.embedding(of: opening + text)).reduce(0) {
      $0 + $1.0 * $1.1
    }
    #expect(cosine > 0.999)
  }
}
