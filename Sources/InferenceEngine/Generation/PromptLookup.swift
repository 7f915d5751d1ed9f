/// Draft tokens for speculative decoding, taken from the text so far (prompt lookup): where
/// the last few tokens occurred before, the tokens that followed them then are proposed next.
///
/// The longest match wins (up to `longestMatch` tokens), then the most recent occurrence: how
/// long the match is says how far the continuation may be trusted (`DraftPolicy`), and so does
/// whether every occurrence of the match went on the same way (a name or a figure the text
/// holds once, however short the match).
enum PromptLookup {
  static let longestMatch = 16

  /// What the lookup found after a context.
  struct Found: Equatable {
    /// How many of the context's last tokens occurred before (0 when none).
    var match = 0
    /// Tokens that followed the most recent of those occurrences.
    var tokens: [Token] = []
    /// How many of `tokens` followed every occurrence of the match.
    var agreed = 0
    /// Where the tokens after each occurrence of the match begin, the most recent first (so
    /// where `tokens` begin, first).
    var occurrences: [Int] = []
  }

  /// The longest suffix of `context` that occurred before, up to `count` tokens that followed
  /// its most recent occurrence, and how many of them followed every occurrence.
  /// - Parameters:
  ///   - keys: what the tokens are compared by, one per token of `context` (tokens that differ
  ///     only by a leading space compare equal where a value is copied from a text); the tokens
  ///     themselves when nil.
  ///   - before: where occurrences must end before (the prompt's end: the document a value is
  ///     copied from); anywhere before the suffix when nil.
  static func find(in context: [Token], keys: [Token]? = nil, count: Int, before: Int? = nil) -> Found {
    let keys = keys ?? context
    guard count > 0, keys.count == context.count, context.count > 1 else { return Found() }
    let last = context.count - 1
    var best = 0
    var ends: [Int] = []
    // Each earlier position that holds the last token ends a match; count how far back it goes.
    for end in stride(from: min(last, before ?? last) - 1, through: 0, by: -1) where keys[end] == keys[last] {
      var length = 1
      while length < longestMatch, length <= end, keys[end - length] == keys[last - length] { length += 1 }
      if length > best {
        best = length
        ends = [end]
      } else if length == best {
        ends.append(end)
      }
    }
    guard let recent = ends.first else { return Found() }
    let tokens = Array(context[(recent + 1)..<min(recent + 1 + count, context.count)])
    var agreed = tokens.count
    for end in ends.dropFirst() {
      var same = 0
      while same < agreed, end + 1 + same < context.count, context[end + 1 + same] == tokens[same] { same += 1 }
      agreed = same
    }
    return Found(match: best, tokens: tokens, agreed: agreed, occurrences: ends.map { $0 + 1 })
  }
}
