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
}
