import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// The contexts a model keeps for its next sessions (`smollm2-135m`).
@Suite struct ContextPoolTests {
  static let small = ContextConfiguration(contextSize: 64, batchSize: 32, threads: 1)
  static let larger = ContextConfiguration(contextSize: 128, batchSize: 32, threads: 1)

  /// Of two contexts of one configuration that come back, the later one is kept and the
  /// earlier one freed; a kept context serves only its own configuration.
  @Test func theLaterOfTwoEndedContextsOfAConfigurationIsKept() throws {
    let model = try LlamaModel(path: TestModels.smolLM2Path)
    do {
      let later = try model.makeBackend(Self.larger)
      _ = try model.makeBackend(Self.larger)
      #expect(model.contexts.keptCount == 1)
      #expect(later.contextLength == Self.larger.contextSize)
    }
    #expect(model.contexts.keptCount == 1)
    #expect(model.contexts.take(Self.small) == nil)
    let kept = try #require(model.contexts.take(Self.larger))
    #expect(kept.context.configuration == Self.larger)
    #expect(model.contexts.keptCount == 0)
  }

  /// A context of another configuration that comes back after a session ended — the judge's,
  /// another session's, one let go of a moment late — leaves the context that session left,
  /// with its cache, for the next session of its configuration. (One context kept in all, the
  /// next session found the other one and evaluated its whole prompt again.)
  @Test func aContextOfAnotherConfigurationLeavesTheKeptOne() throws {
    let model = try LlamaModel(path: TestModels.smolLM2Path)
    let tokens = model.tokenize("A gull circles the harbour", parseSpecial: false)
    let flag = CancellationFlag()
    var ended: (any TokenBackend)? = try model.makeBackend(Self.small)
    _ = try ended?.evaluate(tokens[...], cancellation: flag)
    ended?.markPartBoundary()
    ended = nil
    // Another configuration's context comes back after it.
    _ = try model.makeBackend(Self.larger)
    #expect(model.contexts.keptCount == 2)
    let next = try model.makeBackend(Self.small)
    #expect(next.cachedTokens == tokens, "the ended session's cache, not an empty context")
    #expect(try model.makeBackend(Self.larger).cachedTokens.isEmpty)
  }

  /// At most `ContextPool.maximumKept` contexts are kept: past it, the one returned longest ago
  /// is freed.
  @Test func theContextReturnedLongestAgoIsFreedPastTheLimit() throws {
    let model = try LlamaModel(path: TestModels.smolLM2Path)
    let sizes = (0...ContextPool.maximumKept).map { 32 + 16 * $0 }
    let configurations = sizes.map { ContextConfiguration(contextSize: $0, batchSize: 32, threads: 1) }
    for configuration in configurations { _ = try model.makeBackend(configuration) }
    #expect(model.contexts.keptCount == ContextPool.maximumKept)
    #expect(model.contexts.take(configurations[0]) == nil)
    for configuration in configurations.dropFirst() { #expect(model.contexts.take(configuration) != nil) }
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
