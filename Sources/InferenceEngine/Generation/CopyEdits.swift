/// What a generation that copies a text without a constraint (a rewrite, an edit of a file)
/// changes in it, learnt as it goes, for `PromptLookup`'s copies (see `DecodeSteps.draft`).
///
/// A rewrite repeats its edits: a renamed method is renamed at every call, a name replaced
/// everywhere. Where the model refused a copied guess and, a little later, confirmed a copy of
/// the text again, what it wrote between stands for what the text held between: a
/// substitution. Copies of the text then make it in their guesses, and where the output ends
/// in a substitution's words, the text is looked up as if it ended in the words they replaced,
/// so the copy goes on at once after an edit.
///
/// An edit that is not repeated (a spelling fixed, a word inserted, a pronoun changed) leaves
/// no substitution to make, but the text is still read in order: shortly after the output
/// copied it last, where the output's last tokens occur near where that copy stopped, the copy
/// goes on from there (`Realigned`), on a match of any length, instead of waiting for 4 or 8
/// tokens after the edit to match somewhere in the text.
struct CopyEdits {
  struct Substitution: Equatable {
    var replaced: [Token]
    var replacement: [Token]
  }

  /// The substitutions learnt, the most recent first.
  private(set) var substitutions: [Substitution] = []
  /// Where the output left the text: the prompt position of the refused copied guess and the
  /// output position the model wrote in its place.
  private var divergence: (source: Int, output: Int)?

  /// Where the output last copied the text: the prompt position after the copied token and the
  /// output's length after it.
  private var lastCopy: (source: Int, output: Int)?

  /// The most substitutions kept, and the longest span either side of one.
  static let limit = 8
  static let longestSpan = 16
  /// How far after where it left the text the output may come back to it for an edit.
  static let window = 48
  /// How far after where the copy stopped one token alone realigns it at most (a common
  /// token, a comma, occurs every few tokens; an edit replaces a few).
  static let nearby = 8

  /// A copy of the text resumed near where the output copied it last.
  struct Realigned: Equatable {
    /// How many of the output's last tokens the text holds there.
    var match: Int
    /// Where the copy resumes.
    var start: Int
  }

  /// Notes that the model refused `guess`, copied from `prompt`'s position `source`, at output
  /// position `output`: where the output left the text, unless it left it shortly before
  /// (a guess refused on the way back, from elsewhere in the text). A substitution's last word
  /// refused (see `copy(of:from:count:)`) leaves the text where it was left: it is not the
  /// text's.
  mutating func refused(_ guess: Token, source: Int, output: Int, prompt: [Token]) {
    guard prompt[source] == guess else { return }
    if let divergence, output - divergence.output <= Self.window { return }
    divergence = (source, output)
  }

  /// Notes that the model confirmed a guess copied from prompt position `source`, at output
  /// position `output`: where the output left the text shortly before, what it wrote since
  /// replaced what the text held since (their common ends aside) and is learnt.
  mutating func confirmed(source: Int, output: Int, prompt: [Token], generated: [Token]) {
    lastCopy = (source + 1, output + 1)
    // A substitution's last word (see `copy(of:from:count:)`) moves where the output reads on
    // only: it is not the text's.
    guard generated[output] == prompt[source], let (left, wrote) = divergence else { return }
    guard source >= left, source - left <= Self.window, output >= wrote, output - wrote <= Self.window else {
      if output - wrote > Self.window { divergence = nil }
      return
    }
    divergence = nil
    var replaced = prompt[left..<source]
    var replacement = generated[wrote..<output]
    while let a = replaced.last, let b = replacement.last, a == b {
      replaced.removeLast()
      replacement.removeLast()
    }
    while let a = replaced.first, let b = replacement.first, a == b {
      replaced.removeFirst()
      replacement.removeFirst()
    }
    guard !replaced.isEmpty, !replacement.isEmpty, replaced.count <= Self.longestSpan,
      replacement.count <= Self.longestSpan
    else { return }
    let learnt = Substitution(replaced: Array(replaced), replacement: Array(replacement))
    substitutions.removeAll { $0.replaced == learnt.replaced }
    substitutions.insert(learnt, at: 0)
    if substitutions.count > Self.limit { substitutions.removeLast() }
  }

  /// `PromptLookup.find` on `context` (the prompt, `promptCount` tokens, and the output so far),
  /// with the edits learnt: where the output ends in a substitution's words and the text as it
  /// was before them matches a copied span's length, that match, its guesses led by the rest of
  /// the words; failing a copied span's match, the copy resumed near where the output copied
  /// the text last (`realigned`, which the match and the first occurrence then describe); and
  /// up to `count` guesses after the match, the substitutions made in them, each with the
  /// position it copies (see `copy(of:from:count:)`).
  func find(in context: [Token], promptCount: Int, count: Int) -> (
    found: PromptLookup.Found, guesses: [(token: Token, source: Int?)], realigned: Bool
  ) {
    var found = PromptLookup.find(in: context, count: count)
    var rest: [Token] = []
    var realigned = false
    if found.match < DraftPolicy.copyMatch {
      for (undone, pending) in undone(context) {
        let alternative = PromptLookup.find(in: undone, count: count)
        if alternative.match >= DraftPolicy.copyMatch, !alternative.occurrences.isEmpty {
          (found, rest) = (alternative, pending)
          break
        }
      }
    }
    if found.match < DraftPolicy.copyMatch, let resumed = realign(context, promptCount: promptCount) {
      let tokens = Array(context[resumed.start..<min(resumed.start + count, context.count)])
      found = PromptLookup.Found(match: resumed.match, tokens: tokens, agreed: 0, occurrences: [resumed.start])
      realigned = true
    }
    guard let start = found.occurrences.first else { return (found, [], false) }
    let guesses = Self.words(rest, replacing: start - 1) + copy(of: context, from: start, count: count)
    return (found, Array(guesses.prefix(count)), realigned)
  }

  /// Within `window` output tokens after the output last copied the text, the occurrence of
  /// its last tokens in the prompt (the first `promptCount` tokens of `context`) from that
  /// copy's last token on, within `window` of it, with the longest match (the nearest of
  /// those). A match of one token counts only as far after it as the output wrote tokens
  /// since, and 2 more (an edit replaces words by about as many), up to `nearby`.
  func realign(_ context: [Token], promptCount: Int) -> Realigned? {
    guard let lastCopy else { return nil }
    let written = context.count - promptCount - lastCopy.output
    guard written <= Self.window else { return nil }
    let last = context.count - 1
    let from = lastCopy.source - 1
    var best: Realigned?
    for position in from..<min(promptCount - 1, from + Self.window) where context[position] == context[last] {
      var length = 1
      while length < PromptLookup.longestMatch, length <= position, context[position - length] == context[last - length]
      {
        length += 1
      }
      if length == 1, position - from > min(written + 2, Self.nearby) { continue }
      if length > best?.match ?? 0 { best = Realigned(match: length, start: position + 1) }
    }
    return best
  }

  /// Up to `count` tokens of `text` from `start` on, with the substitutions made, each with
  /// the position it copies: for a substitution's words, none but for the last, which stands
  /// for the replaced words' last (the output copies the text on from after it).
  private func copy(of text: [Token], from start: Int, count: Int) -> [(token: Token, source: Int?)] {
    var copied: [(token: Token, source: Int?)] = []
    var position = start
    while copied.count < count, position < text.count {
      if let edit = substitutions.first(where: { text[position...].starts(with: $0.replaced) }) {
        position += edit.replaced.count
        copied += Self.words(edit.replacement, replacing: position - 1)
      } else {
        copied.append((text[position], position))
        position += 1
      }
    }
    return copied
  }

  /// A substitution's words as guesses: the last with `source`, the position of the last word
  /// they replace, the others with none.
  private static func words(_ words: [Token], replacing source: Int) -> [(token: Token, source: Int?)] {
    words.enumerated().map { ($1, $0 == words.count - 1 ? source : nil) }
  }

  /// Where `context` ends in the first tokens of a substitution's replacement (all of them or
  /// fewer): `context` with them put back as the replaced words, to look the text up with, and
  /// the rest of the replacement, which goes before the text copied after them.
  private func undone(_ context: [Token]) -> [(context: [Token], rest: [Token])] {
    substitutions.flatMap { edit in
      (1...edit.replacement.count).reversed().compactMap { written in
        guard context.count > written, context.suffix(written).elementsEqual(edit.replacement.prefix(written)) else {
          return nil
        }
        return (context.dropLast(written) + edit.replaced, Array(edit.replacement.dropFirst(written)))
      }
    }
  }
}
