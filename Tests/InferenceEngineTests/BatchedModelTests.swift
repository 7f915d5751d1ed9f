import FMTestSupport
import Foundation
import Synchronization
import Testing

@testable import InferenceEngine

/// Sessions sharing one batched context on the real small model (`smollm2-135m`).
///
/// Batched logits may differ from a lone sequence's in the last bits (llama.cpp's kernels
/// round a row differently beside others), so these tests check properties: every stream
/// completes with text that is its tokens, within its budget; the scheduler merged the
/// sequences' work; the slots are found and freed. Never a particular text.
@Suite struct BatchedModelTests {
  let model: LlamaModel

  init() async throws {
    model = try await TestModels.smolLM2()
  }

  static let questions = [
    "Write a short poem about the sea.", "Name three colours.", "What is a gale?", "Count from one to ten.",
  ]

  func batched(slots: Int, contextSize: Int = 512, batchSize: Int = 64) throws -> BatchedModel {
    try BatchedModel(
      model: model,
      configuration: BatchingConfiguration(
        slots: slots, context: ContextConfiguration(contextSize: contextSize, batchSize: batchSize)))
  }

  func session(on batched: BatchedModel, contextSize: Int = 512) -> InferenceSession {
    InferenceSession(model: batched, configuration: batched.configuration.context)
  }

  func prompt(_ question: String) -> [Token] {
    model.tokenize(try! model.chatTemplate!.render([ChatMessage(role: .user, content: question)]))
  }

  /// Four sessions at once on four slots: each completes within its own budget with text that
  /// is its tokens, and the scheduler ran fewer decodes than the sequences' evaluations.
  @Test func concurrentSessionsCompleteWithinTheirBudgets() async throws {
    let batched = try batched(slots: 4)
    let results = try await withThrowingTaskGroup(of: (Int, RecordedGeneration).self) { group in
      for (index, question) in Self.questions.enumerated() {
        let session = session(on: batched)
        let request = GenerationRequest(promptTokens: prompt(question), maximumTokens: 12 + 4 * index)
        group.addTask { (index, try await session.record(request)) }
      }
      return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    #expect(results.count == 4)
    for (index, result) in results {
      #expect(!result.tokens.isEmpty)
      #expect(result.tokens.count <= 12 + 4 * index)
      #expect([.endOfTurn, .maximumTokens].contains(result.summary.stopReason))
      #expect(model.detokenize(result.tokens) == result.text)
    }
    let statistics = batched.statistics
    #expect(statistics.decodes < statistics.evaluations, "\(statistics)")
    #expect(statistics.widestDecode >= 2, "\(statistics)")
    #expect(batched.busySlots == 0)
  }

  /// A slot drafts as a context of its own would while it runs alone, and while another slot
  /// runs a request, whose rows share its decodes, a few tokens at most (copied spans only, see
  /// `DecodeStepsTests.sharedDecodesDraftCopiedSpansOnly`).
  @Test func aSlotDraftsLessWhileAnotherRuns() throws {
    let batched = try batched(slots: 2)
    let first = try batched.makeBackend(batched.configuration.context)
    let second = try batched.makeBackend(batched.configuration.context)
    let alone = min(LlamaTokenBackend.outputLimit, batched.configuration.context.batchSize) - 1
    let own = try model.makeBackend(ContextConfiguration(contextSize: 256))
    #expect(alone == own.draftTokenLimit || batched.configuration.context.batchSize < LlamaTokenBackend.outputLimit)
    try first.beginRequest(prompt: prompt(Self.questions[0]), cancellation: CancellationFlag())
    #expect(first.draftTokenLimit == alone)
    #expect(!first.sharesDecodes)
    try second.beginRequest(prompt: prompt(Self.questions[1]), cancellation: CancellationFlag())
    #expect(first.draftTokenLimit == BatchedSlotBackend.sharedDraftLimit)
    #expect(first.sharesDecodes && second.sharesDecodes)
    first.endRequest()
    #expect(second.draftTokenLimit == alone)
    #expect(!second.sharesDecodes)
    second.endRequest()
  }

  /// A new request's prompt goes to the scheduler in one evaluation, so its first token waits
  /// for one decode (under the token budget), not one per prompt part; the slot it leaves
  /// still ends a part where the prompt ended, so the same prompt again finds it (all but its
  /// last token, or last two under the plain attention kernel: `TokenBackend.consistentRows`).
  @Test func aFreshPromptIsOneEvaluation() async throws {
    let batched = try batched(slots: 2)
    let tokens = prompt(Self.questions[0])
    let system = tokens.count / 2
    let request = GenerationRequest(promptTokens: tokens, promptBoundaries: [system], maximumTokens: 1)
    let result = try await session(on: batched).record(request)
    #expect(result.tokens.count == 1)
    #expect(batched.statistics.evaluations == 1, "\(batched.statistics)")
    let again = try await session(on: batched).record(request)
    #expect(again.summary.usage.cachedPromptTokens == tokens.count - batched.attentionKernel.consistentRows)
    #expect(batched.statistics.evaluations == 2, "\(batched.statistics)")
  }

  /// More sessions than slots: the extra ones wait for a slot, and all complete.
  @Test func sessionsBeyondTheSlotsWaitForOne() async throws {
    let batched = try batched(slots: 1)
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
      for question in Self.questions.prefix(3) {
        let session = session(on: batched)
        let request = GenerationRequest(promptTokens: prompt(question), maximumTokens: 8)
        group.addTask { try await session.record(request).tokens.count }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(counts.count == 3)
    #expect(counts.allSatisfy { $0 >= 1 && $0 <= 8 })
    #expect(batched.statistics.widestDecode == 1)
    #expect(batched.waitingRequests == 0)
  }

  /// A stream dropped mid-way stops at once; the others go on to their end, and its slot is
  /// free again for the next request.
  @Test func cancellingOneStreamLeavesTheOthersGoing() async throws {
    let batched = try batched(slots: 3)
    let others = (1...2).map { index in
      let session = session(on: batched)
      let request = GenerationRequest(promptTokens: prompt(Self.questions[index]), maximumTokens: 24)
      return Task { try await session.record(request) }
    }
    let cancelled = session(on: batched)
    var pieces = 0
    for try await event in cancelled.generate(GenerationRequest(promptTokens: prompt(Self.questions[0]))) {
      if case .text = event { pieces += 1 }
      if pieces == 2 { break }
    }
    #expect(pieces == 2)
    for other in others {
      let result = try await other.value
      #expect(!result.tokens.isEmpty && result.tokens.count <= 24)
      #expect(model.detokenize(result.tokens) == result.text)
    }
    // The cancelled request ends on its own queue; its slot comes back within a decode or two.
    let deadline = Date(timeIntervalSinceNow: 10)
    while batched.busySlots > 0 && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
    #expect(batched.busySlots == 0)
    #expect(cancelled.progress.generatedTokens < 200)
    let next = try await cancelled.record(GenerationRequest(promptTokens: prompt(Self.questions[3]), maximumTokens: 4))
    #expect(!next.tokens.isEmpty)
  }

  /// A conversation that comes back in a new session (as a stateless server sees it) lands on
  /// the slot holding its first turn and evaluates only what is new, though another
  /// conversation ran on the other slot in between.
  @Test func aReturningConversationReusesItsSlot() async throws {
    let batched = try batched(slots: 2)
    let first = prompt(Self.questions[0])
    let reply = try await session(on: batched).record(GenerationRequest(promptTokens: first, maximumTokens: 16))
    _ = try await session(on: batched).record(
      GenerationRequest(promptTokens: prompt(Self.questions[1]), maximumTokens: 16))
    let next = model.tokenize(
      "<|im_end|>\n<|im_start|>user\nAnd a lake?<|im_end|>\n<|im_start|>assistant\n", parseSpecial: true)
    let returning = first + reply.tokens + next
    let second = try await session(on: batched).record(GenerationRequest(promptTokens: returning, maximumTokens: 8))
    // The last token of the reply was sampled, never evaluated: the slot holds all but it.
    #expect(second.summary.usage.cachedPromptTokens >= first.count + reply.tokens.count - 1)
    #expect(second.summary.usage.evaluatedPromptTokens < returning.count)
    #expect(!second.tokens.isEmpty)
  }

  /// With one slot, a conversation whose slot another conversation took in between comes back to
  /// its cache, kept in host memory meanwhile: it evaluates only what is new, and generates.
  @Test func aConversationWhoseSlotWasLentFindsItsCacheRestored() async throws {
    let batched = try batched(slots: 1)
    let long = String(repeating: "Answer briefly and kindly, as a sailor would. ", count: 12)
    let first = prompt(long + Self.questions[0])
    let reply = try await session(on: batched).record(GenerationRequest(promptTokens: first, maximumTokens: 16))
    _ = try await session(on: batched).record(
      GenerationRequest(promptTokens: prompt(Self.questions[1] + long), maximumTokens: 16))
    let next = model.tokenize(
      "<|im_end|>\n<|im_start|>user\nAnd a lake?<|im_end|>\n<|im_start|>assistant\n", parseSpecial: true)
    let returning = first + reply.tokens + next
    let second = try await session(on: batched).record(GenerationRequest(promptTokens: returning, maximumTokens: 8))
    #expect(batched.statistics.savedCaches >= 1 && batched.statistics.restoredCaches == 1)
    #expect(second.summary.usage.cachedPromptTokens >= first.count + reply.tokens.count - 1)
    #expect(!second.tokens.isEmpty)
    // Restored to the bit: the same turns where the conversation kept its slot (a second slot
    // for the other), each decode holding it alone, end alike.
    let kept = try self.batched(slots: 2)
    let keptReply = try await session(on: kept).record(GenerationRequest(promptTokens: first, maximumTokens: 16))
    _ = try await session(on: kept).record(
      GenerationRequest(promptTokens: prompt(Self.questions[1] + long), maximumTokens: 16))
    let keptSecond = try await session(on: kept).record(
      GenerationRequest(promptTokens: first + keptReply.tokens + next, maximumTokens: 8))
    #expect(kept.statistics.restoredCaches == 0)
    #expect(keptReply.tokens == reply.tokens && keptSecond.tokens == second.tokens)
  }

  /// A prompt longer than a slot's context fails at once with the counts; the sessions beside
  /// it complete.
  @Test func aPromptThatCannotFitFailsAndTheOthersGoOn() async throws {
    let batched = try batched(slots: 2, contextSize: 256)
    let others = Self.questions.prefix(2).map { question in
      let session = session(on: batched)
      let request = GenerationRequest(promptTokens: prompt(question), maximumTokens: 16)
      return Task { try await session.record(request) }
    }
    let long = prompt(String(repeating: "The sea is wide and deep. ", count: 60))
    #expect(long.count > 256)
    await #expect {
      try await session(on: batched).record(GenerationRequest(promptTokens: long, maximumTokens: 4))
    } throws: { error in
      (error as? EngineError)?.code == .promptTooLong && "\(error)".contains("\(long.count)")
    }
    for other in others { #expect(try await !other.value.tokens.isEmpty) }
  }

  /// A session's settings that the slots share must be the batched model's: a different one
  /// is refused by name, never ignored.
  @Test func aSessionCannotBringItsOwnBatchSizeOrThreads() throws {
    let batched = try batched(slots: 1)
    var configuration = batched.configuration.context
    configuration.batchSize += 1
    #expect(throws: EngineError.self) { try batched.makeBackend(configuration) }
    configuration = batched.configuration.context
    configuration.contextSize += 1
    #expect(throws: EngineError.self) { try batched.makeBackend(configuration) }
    #expect(throws: EngineError.self) {
      try BatchedModel(model: model, configuration: BatchingConfiguration(slots: 0))
    }
  }
}
