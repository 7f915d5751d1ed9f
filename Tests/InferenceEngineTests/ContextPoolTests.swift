import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// The context a model keeps for its next session (`smollm2-135m`).
@Suite struct ContextPoolTests {
  static let small = ContextConfiguration(contextSize: 64, batchSize: 32, threads: 1)
  static let larger = ContextConfiguration(contextSize: 128, batchSize: 32, threads: 1)

  /// Of two contexts that come back, the later one is kept and the earlier one freed; a kept
  /// context serves only its own configuration.
  @Test func theLaterOfTwoEndedContextsIsKept() throws {
    let model = try LlamaModel(path: TestModels.smolLM2Path)
    do {
      let later = try model.makeBackend(Self.larger)
      _ = try model.makeBackend(Self.small)
      #expect(model.contexts.keptCount == 1)
      #expect(later.contextLength == Self.larger.contextSize)
    }
    #expect(model.contexts.keptCount == 1)
    #expect(model.contexts.take(Self.small) == nil)
    let kept = try #require(model.contexts.take(Self.larger))
    #expect(kept.context.configuration == Self.larger)
    #expect(model.contexts.keptCount == 0)
  }

  /// A model let go of while it keeps a context frees the context first, then itself.
  @Test func aModelWithAKeptContextIsFreed() throws {
    weak var released: LlamaModel?
    do {
      let model = try LlamaModel(path: TestModels.smolLM2Path)
      released = model
      _ = try model.makeBackend(Self.small)
      #expect(model.contexts.keptCount == 1)
    }
    #expect(released == nil, "a kept context must not keep its model loaded")
  }
}
