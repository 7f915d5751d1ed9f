/// Draft tokens for speculative decoding, taken from the text so far (prompt lookup): where
/// the last few tokens occurred before, the tokens that followed them then are proposed next.
///
/// The longest match wins (up to `longestMatch` tokens), then the most recent occurrence: how
/// long the match is says how far the continuation may be trusted (`DraftPolicy`).
enum PromptLookup {
  static let longestMatch = 16

  /// Up to `count` tokens that followed the most recent earlier occurrence of the longest
  /// suffix of `context` (of at least `shortestMatch` tokens) that occurred before, and that
  /// suffix's length; none and 0 when no suffix that long occurred before.
  static func draft(in context: [Token], count: Int, shortestMatch: Int) -> (match: Int, tokens: [Token]) {
    guard count > 0, shortestMatch > 0, context.count > 1 else { return (0, []) }
    let last = context.count - 1
    var best = (length: 0, end: 0)
    // Each earlier position that holds the last token ends a match; count how far back it goes.
    for end in stride(from: last - 1, through: 0, by: -1) where context[end] == context[last] {
      var length = 1
      while length < longestMatch, length <= end, context[end - length] == context[last - length] { length += 1 }
      if length > best.length {
        best = (length, end)
        if length == longestMatch { break }
      }
    }
    guard best.length >= shortestMatch else { return (0, []) }
    return (best.length, Array(context[(best.end + 1)..<min(best.end + 1 + count, context.count)]))
  }
}
