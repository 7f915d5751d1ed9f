/// Which tokens of the waiting evaluations go into the next `llama_decode` of a shared context:
/// the scheduler's policy, without threads or llama.cpp, so it can be tested on its own.
///
/// Every decode takes at most `budget` tokens. Whole evaluations go first, shortest first, so
/// each running sequence's next token (one, or a few with forced text and drafts) is in the
/// next decode; what is left of the budget goes to chunks of the longer ones (prompts), in the
/// order they came. A long prefill so delays the others' next tokens by one decode of at most
/// `budget` tokens, never by its whole length.
enum BatchPlan {
  /// An evaluation waiting for the context.
  struct Pending: Equatable {
    /// The caller's identifier.
    let id: Int
    /// Tokens still to evaluate.
    let remaining: Int
    /// Logits wanted after its last tokens: they all come from its last chunk.
    let outputs: Int
  }

  /// Tokens of one evaluation in the decode.
  struct Chunk: Equatable {
    let id: Int
    let count: Int
    /// Whether the chunk ends the evaluation (and so carries its outputs).
    let isLast: Bool
  }

  /// The chunks of the next decode, in the order the decode holds them.
  /// - Parameters:
  ///   - pending: the waiting evaluations in the order they came.
  ///   - budget: the most tokens of one decode (the context's batch size).
  static func next(_ pending: [Pending], budget: Int) -> [Chunk] {
    var left = budget
    var chunks: [Chunk] = []
    var taken = Set<Int>()
    let shortestFirst = pending.indices.sorted { (pending[$0].remaining, $0) < (pending[$1].remaining, $1) }
    for index in shortestFirst where pending[index].remaining <= left {
      chunks.append(Chunk(id: pending[index].id, count: pending[index].remaining, isLast: true))
      left -= pending[index].remaining
      taken.insert(index)
    }
    for (index, evaluation) in pending.enumerated() where !taken.contains(index) && left > 0 {
      var count = min(left, evaluation.remaining)
      // The outputs all come from the last chunk: leave it at least that many tokens.
      if count < evaluation.remaining && evaluation.remaining - count < evaluation.outputs {
        count = evaluation.remaining - evaluation.outputs
      }
      guard count > 0 else { continue }
      chunks.append(Chunk(id: evaluation.id, count: count, isLast: count == evaluation.remaining))
      left -= count
    }
    return chunks
  }
}
