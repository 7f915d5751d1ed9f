import CLlama

/// A reusable `llama_batch`, freed with its owner: tokens of one sequence (`fill`), or of
/// several, one seq id per token (`clear` then `append`).
final class LlamaBatch {
  private(set) var batch: llama_batch
  let capacity: Int

  init(capacity: Int) {
    // llama_batch_init(n_tokens, embd = 0, n_seq_max = 1): token batch with one seq id per token.
    batch = llama_batch_init(Int32(capacity), 0, 1)
    self.capacity = capacity
  }

  deinit {
    llama_batch_free(batch)
  }

  /// Fills the batch with `tokens` at consecutive positions from `start`, asking for logits of
  /// the last `outputs` tokens only (prefill needs no others), followed by `padding` copies of
  /// the last token that ask for none (the caller removes them from the cache afterwards).
  func fill(_ tokens: ArraySlice<Token>, startPosition start: Int, outputs: Int = 1, padding: Int = 0) {
    precondition(tokens.count + padding <= capacity, "batch overflow")
    guard let last = tokens.last else { return }
    for offset in 0..<tokens.count + padding {
      batch.token[offset] = offset < tokens.count ? tokens[tokens.startIndex + offset] : last
      batch.pos[offset] = Int32(start + offset)
      batch.n_seq_id[offset] = 1
      batch.seq_id[offset]?[0] = 0
      batch.logits[offset] = offset < tokens.count && offset >= tokens.count - outputs ? 1 : 0
    }
    batch.n_tokens = Int32(tokens.count + padding)
  }

  /// Empties the batch.
  func clear() { batch.n_tokens = 0 }

  /// Tokens in the batch now.
  var count: Int { Int(batch.n_tokens) }

  /// Adds `token` at `position` of `sequence`, asking for its logits when `output`.
  func append(_ token: Token, position: Int, sequence: Int32, output: Bool) {
    let offset = Int(batch.n_tokens)
    precondition(offset < capacity, "batch overflow")
    batch.token[offset] = token
    batch.pos[offset] = Int32(position)
    batch.n_seq_id[offset] = 1
    batch.seq_id[offset]?[0] = sequence
    batch.logits[offset] = output ? 1 : 0
    batch.n_tokens += 1
  }
}
