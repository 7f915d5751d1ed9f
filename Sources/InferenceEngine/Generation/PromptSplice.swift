/// Reuses a cache whose tokens spell the prompt's text in other tokens: a conversation's
/// earlier reply as the model generated it (constrained decoding forces text token by token,
/// so a tool call's tokens are seldom the ones the tokenizer gives its text), now rendered
/// back into the prompt and tokenized afresh.
///
/// Where the cache and the prompt part, both are read on as bytes; as long as the bytes agree,
/// every point where both token sequences end together is a place to splice: the cache's tokens
/// up to there, then the prompt's from there. The model reads the same text either way, in the
/// tokens it wrote itself. A control token (no text of its own) must be the same token in both,
/// at such a point: text never stands in for one, nor one for text.
///
/// Only for backends whose cache is not kept bit-exact to a fresh evaluation anyway (a batched
/// slot, see `DecodeSteps.promptPlan`): the spliced prompt's tokens differ from the
/// tokenizer's.
enum PromptSplice {
  /// The prompt spliced onto `cached`, with its boundaries moved along, or nil when no more of
  /// the cache is reusable than its tokens in common with the prompt.
  static func onto(
    cached: [Token], prompt: [Token], boundaries: [Int], model: any TokenModel
  ) -> (tokens: [Token], boundaries: [Int])? {
    let common = DecodeSteps.commonPrefixLength(cached, prompt)
    // The prompt's last token is always evaluated (its logits choose the first token).
    let promptEnd = prompt.count - 1
    guard common < cached.count, common < promptEnd else { return nil }
    var i = common
    var j = common
    var pendingCached: [UInt8] = []
    var pendingPrompt: [UInt8] = []
    var best: (cached: Int, prompt: Int)?
    while true {
      if pendingCached.isEmpty && pendingPrompt.isEmpty {
        if i > common { best = (i, j) }
        guard i < cached.count, j < promptEnd else { break }
        let (a, b) = (cached[i], prompt[j])
        let (pieceA, pieceB) = (model.piece(of: a), model.piece(of: b))
        if pieceA.isEmpty || pieceB.isEmpty {
          // A control token (or an empty one) matches only itself.
          guard a == b else { break }
          i += 1
          j += 1
          continue
        }
        pendingCached = pieceA
        pendingPrompt = pieceB
        i += 1
        j += 1
      } else if pendingCached.count < pendingPrompt.count {
        guard i < cached.count else { break }
        let piece = model.piece(of: cached[i])
        guard !piece.isEmpty else { break }
        pendingCached += piece
        i += 1
      } else if pendingPrompt.count < pendingCached.count {
        guard j < promptEnd else { break }
        let piece = model.piece(of: prompt[j])
        guard !piece.isEmpty else { break }
        pendingPrompt += piece
        j += 1
      }
      let shared = min(pendingCached.count, pendingPrompt.count)
      guard pendingCached.prefix(shared) == pendingPrompt.prefix(shared) else { break }
      pendingCached.removeFirst(shared)
      pendingPrompt.removeFirst(shared)
    }
    guard let best, best.cached > common else { return nil }
    let shift = best.cached - best.prompt
    let moved = boundaries.compactMap { position -> Int? in
      if position <= common { return position }
      return position >= best.prompt ? position + shift : nil
    }
    return (Array(cached[..<best.cached]) + prompt[best.prompt...], moved)
  }
}
