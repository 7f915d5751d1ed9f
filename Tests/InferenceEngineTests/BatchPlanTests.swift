import Testing

@testable import InferenceEngine

/// The scheduler's choice of what goes into one decode (no model needed).
@Suite struct BatchPlanTests {
  typealias Pending = BatchPlan.Pending
  typealias Chunk = BatchPlan.Chunk

  /// Running sequences' next tokens go in whole, before a long prompt, which gets what is
  /// left of the budget; its outputs wait for its last chunk.
  @Test func nextTokensFirstThenAChunkOfTheLongPrompt() {
    let pending = [
      Pending(id: 0, remaining: 300, outputs: 1), Pending(id: 1, remaining: 1, outputs: 1),
      Pending(id: 2, remaining: 3, outputs: 2),
    ]
    let plan = BatchPlan.next(pending, budget: 64)
    #expect(
      plan == [
        Chunk(id: 1, count: 1, isLast: true), Chunk(id: 2, count: 3, isLast: true),
        Chunk(id: 0, count: 60, isLast: false),
      ])
    #expect(plan.reduce(0) { $0 + $1.count } <= 64)
  }

  /// A prompt whose rest would leave its last chunk fewer tokens than its outputs stops short,
  /// so that the next decode holds all its outputs.
  @Test func aChunkLeavesTheLastChunkItsOutputs() {
    let plan = BatchPlan.next([Pending(id: 7, remaining: 66, outputs: 4)], budget: 64)
    #expect(plan == [Chunk(id: 7, count: 62, isLast: false)])
    #expect(
      BatchPlan.next([Pending(id: 7, remaining: 4, outputs: 4)], budget: 64) == [Chunk(id: 7, count: 4, isLast: true)])
  }

  /// Two prompts share the budget in the order they came; every decode makes progress.
  @Test func promptsShareTheBudgetInArrivalOrder() {
    var remaining = [0: 100, 1: 100]
    var decodes = 0
    while !remaining.isEmpty {
      let pending = remaining.keys.sorted().map { Pending(id: $0, remaining: remaining[$0] ?? 0, outputs: 1) }
      let plan = BatchPlan.next(pending, budget: 64)
      #expect(!plan.isEmpty)
      #expect(plan.reduce(0) { $0 + $1.count } <= 64)
      if decodes == 0 { #expect(plan == [Chunk(id: 0, count: 64, isLast: false)]) }
      for chunk in plan {
        remaining[chunk.id, default: 0] -= chunk.count
        if chunk.isLast { remaining[chunk.id] = nil }
      }
      decodes += 1
    }
    #expect(decodes == 4)
  }

  /// Next tokens beyond the budget wait for the next decode, whole.
  @Test func nextTokensBeyondTheBudgetWait() {
    let pending = (0..<5).map { Pending(id: $0, remaining: 4, outputs: 4) }
    let plan = BatchPlan.next(pending, budget: 10)
    #expect(plan == [Chunk(id: 0, count: 4, isLast: true), Chunk(id: 1, count: 4, isLast: true)])
  }
}
