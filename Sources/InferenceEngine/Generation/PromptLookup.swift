/// Draft tokens for speculative decoding, taken from the text so far (prompt lookup): where
/// the last few tokens occurred before, the tokens that followed them then are proposed next.
///
/// Why it pays in guided generation: objects repeat their shapes and values (the dates of a
/// list of readings, a company's name in the next entry, the schema's own words), and a decode
/// of four tokens costs little more than one on llama.cpp's CPU kernels (`fm-bench batches`).
/// Matches of two tokens or more: single-token matches propose wrongly so often that the extra
/// tokens would cost more than the passes they save (simulated on the outputs of the guided
/// generation benchmark), and two confirmed more drafts than three on them.
enum PromptLookup {
  static let shortestMatch = 2
  static let longestMatch = 4

  /// Up to `count` tokens that followed the most recent earlier occurrence of the longest
  /// matching suffix of `context`, or none.
  static func draft(in context: [Token], count: Int) -> [Token] {
    guard count > 0 else { return [] }
    for length in stride(from: longestMatch, through: shortestMatch, by: -1) where context.count > length {
      let suffix = context[(context.count - length)...]
      var start = context.count - length - 1
      while start >= 0 {
        if context[start..<start + length].elementsEqual(suffix) {
          let following = start + length
          return Array(context[following..<min(following + count, context.count)])
        }
        start -= 1
      }
    }
    return []
  }
}
