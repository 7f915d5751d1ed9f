/// Which of a prompt's tokens a cache already holds, and the parts the rest is evaluated in.
extension DecodeSteps {
  /// How a prompt is evaluated on a cache: how many of its tokens are reused, and the parts
  /// the rest is evaluated in, one decode each.
  ///
  /// A prompt is split at its `boundaries` and before its last token, whose logits choose the
  /// first token. Where the cache holds parts evaluated that way (`cachedBoundaries`), the
  /// longest run of them that the prompt shares, with the same boundaries, is reused and the
  /// rest evaluated part by part: the cache then holds what a fresh one would, to the bit
  /// (`PartBoundaries` says why that matters). Where the prompt continues past those parts,
  /// as a session's next turn continues its last reply (or, in a tool round, holds the whole
  /// of the last prompt), everything in common is reused and the rest is one part: a session's
  /// own turns are not evaluated again.
  ///
  /// Without `exactParts` (a backend whose decodes are shared, where no split gives that cache)
  /// everything in common is reused and the rest is one part that ends at the prompt's end:
  /// one decode to the first token, the fewest the token budget allows, and the end marked
  /// for the slot choice (`SlotTable`). That part holds at least `consistentRows` tokens, so
  /// that a prompt found whole gets the logits its first evaluation got.
  /// - Returns: the reused count, at most all but the last token (there must be logits), and
  ///   the parts after it, each ending a prompt part only where `endsPart` says so.
  static func promptPlan(
    prompt: [Token], boundaries: [Int], cachedTokens: [Token], cachedBoundaries: PartBoundaries,
    exactParts: Bool = true, consistentRows: Int = 1
  ) -> (reused: Int, parts: [PromptPart]) {
    let count = prompt.count
    let common = min(commonPrefixLength(cachedTokens, prompt), count - 1)
    guard exactParts else {
      let reused = max(min(common, count - consistentRows), 0)
      return (reused, [PromptPart(range: reused..<count, endsPart: true)])
    }
    // A tool round's prompt holds the whole of its turn's last prompt, then the calls as the
    // transcript renders them, which may part from the reply at its first token (a call written
    // in the model's own form): that prompt is not evaluated again either. (A cache that ends
    // at its last part, a prewarmed system turn, is continued part by part as a fresh one.)
    let continuesLastPrompt = common > 0 && common == cachedBoundaries.last && cachedTokens.count > common
    if common > cachedBoundaries.last || continuesLastPrompt {
      return (common, [PromptPart(range: common..<count, endsPart: false)])
    }
    let splits = Array(Set([0, count - 1] + boundaries.filter { $0 > 0 && $0 < count - 1 })).sorted()
    // A cached boundary is reusable where the parts before it are the prompt's parts.
    let reused =
      cachedBoundaries.positions.last { boundary in
        boundary <= common && splits.contains(boundary)
          && cachedBoundaries.positions.filter { $0 <= boundary } == splits.filter { $0 <= boundary }
      } ?? 0
    let ends = splits.filter { $0 > reused } + [count]
    var parts: [PromptPart] = []
    var start = reused
    for end in ends {
      parts.append(PromptPart(range: start..<end, endsPart: true))
      start = end
    }
    return (reused, parts)
  }

  /// A range of the prompt evaluated in one decode.
  struct PromptPart: Equatable {
    let range: Range<Int>
    /// Whether the cache up to its end holds only parts evaluated part by part.
    let endsPart: Bool
  }

  /// How many tokens `a` and `b` have in common at their start.
  static func commonPrefixLength(_ a: [Token], _ b: [Token]) -> Int {
    var count = 0
    let limit = min(a.count, b.count)
    while count < limit && a[count] == b[count] { count += 1 }
    return count
  }
}
