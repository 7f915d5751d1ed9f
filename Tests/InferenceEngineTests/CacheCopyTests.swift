import FMTestSupport
import Testing

@testable import InferenceEngine

/// Copying one slot's cache into another on the real small model (`smollm2-135m`): the copy
/// holds the source's keys and values, and a new conversation that shares a system prompt with
/// another slot's gets it copied instead of evaluating it.
@Suite struct CacheCopyTests {
  let model: LlamaModel

  init() async throws {
    model = try await TestModels.smolLM2()
  }

  func configuration(slots: Int) -> BatchingConfiguration {
    BatchingConfiguration(slots: slots, context: ContextConfiguration(contextSize: 512, batchSize: 64))
  }

  /// The logits after one token, of every row of the last decode, one vocabulary each.
  func logits(of decoder: LlamaBatchDecoder, rows: Int) -> [[Float]] {
    (0..<rows).map { row in
      var values = [Float](repeating: 0, count: model.vocabularySize)
      let copied = values.withUnsafeMutableBufferPointer { decoder.copyLogits(ofRow: row, into: $0) }
      return copied ? values : []
    }
  }

  /// The same token after a copy of a sequence's cache reads what it reads after the source
  /// (one decode, rows side by side); after an empty cache it reads otherwise.
  @Test func aCopiedCacheHoldsTheSourcesKeysAndValues() throws {
    let decoder = try LlamaBatchDecoder(model: model, configuration: configuration(slots: 3))
    let tokens = model.tokenize(
      "The lighthouse keeper climbed the stairs every night to light the lamp", parseSpecial: false)
    let prompt = tokens.enumerated().map { BatchRow(token: $1, position: $0, sequence: 0, output: false) }
    #expect(decoder.decode(prompt, skippingOutputLayer: false) == 0)
    decoder.copyCells(of: 0, to: 1)
    #expect(decoder.cachedCount(of: 1) == tokens.count)
    let next = model.tokenize(" and", parseSpecial: false)[0]
    let rows = (0..<3).map { BatchRow(token: next, position: tokens.count, sequence: Int32($0), output: true) }
    #expect(decoder.decode(rows, skippingOutputLayer: false) == 0)
    let read = logits(of: decoder, rows: 3)
    let difference = { (a: [Float], b: [Float]) in zip(a, b).map { abs($0 - $1) }.max() ?? .infinity }
    #expect(!read[0].isEmpty && read[0].count == read[1].count)
    #expect(difference(read[0], read[1]) < 1e-3)
    #expect(difference(read[0], read[2]) > 1)
  }

  static let instructions =
    "You are a patient assistant for a small seaside library. Answer in one short sentence, name the shelf where a book stands when you know it, and never make up a title."
  /// Long enough that the instructions are less than half of its conversation's slot.
  static let longQuestion =
    "Do you keep books about boats, sailing and the old harbour, the lighthouse on the point, the fishing fleet that left the town a century ago, the shipwrecks along this coast, the storms of the last hundred winters, the ferries to the islands and the men and women who built the boats in the yard by the river? Where do they stand?"

  func prompt(_ question: String) -> [Token] {
    model.tokenize(
      try! model.chatTemplate!.render([
        ChatMessage(role: .system, content: Self.instructions), ChatMessage(role: .user, content: question),
      ]))
  }

  func session(on batched: BatchedModel) -> InferenceSession {
    InferenceSession(model: batched, configuration: batched.configuration.context)
  }

  /// A conversation that comes back while another with the same instructions begins: the new
  /// one gets the instructions copied from the running one's slot, which its request keeps
  /// while it writes its new turn after them.
  @Test func aRunningConversationsPrefixIsCopied() async throws {
    let batched = try BatchedModel(model: model, configuration: configuration(slots: 2))
    let first = prompt(Self.longQuestion)
    let reply = try await session(on: batched).record(GenerationRequest(promptTokens: first, maximumTokens: 16))
    let kept = first + reply.tokens.dropLast()
    let next =
      first + reply.tokens
      + model.tokenize(
        "<|im_end|>\n<|im_start|>user\nTell me more<|im_end|>\n<|im_start|>assistant\n", parseSpecial: true)
    // The returning conversation holds its slot and evaluates its new turn (as its session would).
    let running = try batched.makeBackend(batched.configuration.context)
    try running.beginRequest(prompt: next, cancellation: CancellationFlag())
    #expect(running.cachedTokens == kept)
    _ = try running.evaluate(next[kept.count...], outputs: 1, candidates: nil, cancellation: CancellationFlag())
    #expect(batched.busySlots == 1)
    let second = prompt("Do you have a dictionary?")
    let answer = try await session(on: batched).record(GenerationRequest(promptTokens: second, maximumTokens: 8))
    #expect(batched.statistics.cacheCopies == 1)
    #expect(answer.summary.usage.cachedPromptTokens == DecodeSteps.commonPrefixLength(first, second))
    #expect(!answer.tokens.isEmpty)
    running.endRequest()
  }

  /// A second conversation with the same instructions lands on an empty slot (the first one's
  /// slot holds more than twice the instructions) and gets them copied: it evaluates only its
  /// own question, and the first conversation's slot still holds all of its turn.
  @Test func aSharedSystemPromptIsCopiedNotEvaluated() async throws {
    let batched = try BatchedModel(model: model, configuration: configuration(slots: 2))
    let first = prompt(Self.longQuestion)
    let second = prompt("Do you have a dictionary?")
    // What the two prompts share: the system turn and the user turn's opening.
    let shared = DecodeSteps.commonPrefixLength(first, second)
    try #require(shared >= SlotTable.shortestCopiedPrefix)
    let reply = try await session(on: batched).record(GenerationRequest(promptTokens: first, maximumTokens: 96))
    try #require(2 * shared < first.count)
    let answer = try await session(on: batched).record(GenerationRequest(promptTokens: second, maximumTokens: 8))
    #expect(batched.statistics.cacheCopies == 1)
    #expect(answer.summary.usage.cachedPromptTokens == shared)
    #expect(answer.summary.usage.evaluatedPromptTokens == second.count - shared)
    #expect(!answer.tokens.isEmpty)
    // The first conversation's slot was not taken: its next turn reuses all of it.
    let next =
      first + reply.tokens
      + model.tokenize("<|im_end|>\n<|im_start|>user\nThanks<|im_end|>\n<|im_start|>assistant\n", parseSpecial: true)
    let returning = try await session(on: batched).record(GenerationRequest(promptTokens: next, maximumTokens: 4))
    #expect(returning.summary.usage.cachedPromptTokens >= first.count + reply.tokens.count - 1)
  }
}
