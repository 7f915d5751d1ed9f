import FMTestSupport
import Foundation
import FoundationModels
import Testing

@testable import FMServer

/// `fm serve` loads its first model at the start: what it loaded must still be there when the
/// first request comes.
@Suite(.enabled(if: TestServer.modelIsPresent))
struct ServedModelLoadTests {
  /// Loading makes the batched model (the shared context and the lease on the weights) at
  /// once, so the first request neither loads the weights again nor makes the context; a lease
  /// taken only to load ended at once and took the weights with it.
  @Test func loadingKeepsTheWeightsAndTheContextForTheFirstRequest() async throws {
    let served = ServedModel(
      id: "m", model: SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), keepAlive: .unloadAtOnce),
      slots: 1, queue: 1)
    #expect(served.model.batchedModel == nil)
    try await served.load()
    let batched = try #require(served.model.batchedModel)
    #expect(batched.model === (try await served.tokenModel()) as AnyObject)
  }
}
