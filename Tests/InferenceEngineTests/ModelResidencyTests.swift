import Testing

@testable import InferenceEngine

/// The keep-alive bookkeeping of `ModelLoader`, model-free.
@Suite struct ModelResidencyTests {
  final class Model {}

  @Test func aModelIsKeptAfterItsLastLeaseUntilItsKeepAliveExpires() {
    var residency = ModelResidency<Model>()
    var model: Model? = Model()
    #expect(residency.add(model!, key: "a") === model)
    #expect(
      residency.release("a", keepAlive: .duration(.seconds(300))).action == .expire(after: .seconds(300), generation: 1)
    )
    model = nil
    #expect(residency.isLoaded("a"), "resident: kept by the residency alone")
    #expect(residency.expire("a", generation: 1) != nil)
    #expect(!residency.isLoaded("a"))
    #expect(residency.loads["a"] == 1)
  }

  @Test func aLeaseDuringTheKeepAliveCancelsTheExpiry() {
    var residency = ModelResidency<Model>()
    _ = residency.add(Model(), key: "a")
    guard case .expire(_, let stale) = residency.release("a", keepAlive: .standard).action else {
      Issue.record("no expiry")
      return
    }
    #expect(residency.lease("a") != nil, "found without loading")
    #expect(residency.expire("a", generation: stale) == nil, "the old period ended while leased")
    #expect(residency.isLoaded("a"))
    guard case .expire(_, let current) = residency.release("a", keepAlive: .standard).action else {
      Issue.record("no expiry")
      return
    }
    #expect(current != stale)
    #expect(residency.expire("a", generation: stale) == nil, "a stale period does nothing")
    #expect(residency.expire("a", generation: current) != nil)
    #expect(residency.loads["a"] == 1)
  }

  @Test func aModelIsKeptWhileAnyLeaseLives() {
    var residency = ModelResidency<Model>()
    _ = residency.add(Model(), key: "a")
    #expect(residency.lease("a") != nil)
    let early = residency.release("a", keepAlive: .unloadAtOnce)
    #expect(early.action == .none)
    #expect(early.free == nil, "another lease holds it")
    #expect(residency.releaseIdle().isEmpty, "still leased")
    #expect(residency.release("a", keepAlive: .unloadAtOnce).free != nil, "unloaded at once")
  }

  @Test func foreverKeepsTheModelUntilIdleModelsAreReleased() {
    var residency = ModelResidency<Model>()
    _ = residency.add(Model(), key: "a")
    _ = residency.add(Model(), key: "b")
    #expect(residency.release("a", keepAlive: .forever).action == .none)
    #expect(residency.isLoaded("a"))
    let freed = residency.releaseIdle()
    #expect(freed.count == 1, "b is still leased")
    #expect(residency.isLoaded("b"))
  }

  @Test func aSecondCopyLoadedMeanwhileGivesWayToTheFirst() {
    var residency = ModelResidency<Model>()
    let first = Model()
    _ = residency.add(first, key: "a")
    #expect(residency.add(Model(), key: "a") === first)
    #expect(residency.loads["a"] == 1)
  }

  @Test(arguments: [
    ("300", KeepAlive.duration(.seconds(300))), ("30s", .duration(.seconds(30))), ("5m", .duration(.seconds(300))),
    ("1h", .duration(.seconds(3600))), ("1.5m", .duration(.seconds(90))), ("250ms", .duration(.milliseconds(250))),
    ("0", .unloadAtOnce), ("forever", .forever), ("-1", .forever),
  ])
  func keepAliveParsesOllamaStyleDurations(text: String, expected: KeepAlive) {
    #expect(KeepAlive(text) == expected)
  }

  @Test(arguments: ["", "soon", "5 minutes", "m", "nan"])
  func keepAliveRejectsWhatItCannotRead(text: String) {
    #expect(KeepAlive(text) == nil)
  }
}
