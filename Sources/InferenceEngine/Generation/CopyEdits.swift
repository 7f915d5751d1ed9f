/// What a generation that copies a text without a constraint (a rewrite, an edit of a file)
/// changes in it, learnt as it goes, for `PromptLookup`'s copies (see `DecodeSteps.draft`).
///
/// A rewrite repeats its edits: a renamed method is renamed at every call, a name replaced
/// everywhere. Where the model refused a copied guess and, a little later, confirmed a copy of
/// the text again, what it wrote between stands for what the text held between: a
/// substitution. Copies of the text then make it in their guesses, and where the output ends
/// in a substitution's words, the text is looked up as if it ended in the words they replaced,
/// so the copy goes on at once after an edit.
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

  /// The most substitutions kept, and the longest span either side of one.
  static let limit = 8
  static let longestSpan = 16
  /// How far after where it left the text the output may come back to it for an edit.
  static let window = 48

  /// Notes that the model refused a guess copied from prompt position `source`, at output
  /// position `output`: where the output left the text, unless it left it shortly before
  /// (a guess refused on the way back, from elsewhere in the text).
  mutating func refused(source: Int, output: Int) {
    if let divergence, output - divergence.output <= Self.window { return }
    divergence = (source, output)
  }

  /// Notes that the model confirmed a guess copied from prompt position `source`, at output
  /// position `output`: where the output left the text shortly before, what it wrote since
  /// replaced what the text held since (their common ends aside) and is learnt.
  mutating func confirmed(source: Int, output: Int, prompt: [Token], generated: [Token]) {
    guard let (left, wrote) = divergence else { return }
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

  /// `PromptLookup.find` on `context` (the prompt and the output so far), with the edits learnt:
  /// where the output ends in a substitution's words and the text as it was before them
  /// matches a copied span's length, that match, its guesses led by the rest of the words; and
  /// up to `count` guesses after the match, the substitutions made in them, each with the
  /// position it copies (nil for a substitution's words).
  func find(in context: [Token], count: Int) -> (found: PromptLookup.Found, guesses: [(token: Token, source: Int?)]) {
    var found = PromptLookup.find(in: context, count: count)
    var rest: [Token] = []
    if found.match < DraftPolicy.copyMatch {
      for (undone, pending) in undone(context) {
        let alternative = PromptLookup.find(in: undone, count: count)
        if alternative.match >= DraftPolicy.copyMatch, !alternative.occurrences.isEmpty {
          (found, rest) = (alternative, pending)
          break
        }
      }
    }
    guard let start = found.occurrences.first else { return (found, []) }
    return (found, Array((rest.map { ($0, nil) } + copy(of: context, from: start, count: count)).prefix(count)))
  }

  /// Up to `count` tokens of `text` from `start` on, with the substitutions made, each with
  /// the position it copies (nil for a substitution's words).
  private func copy(of text: [Token], from start: Int, count: Int) -> [(token: Token, source: Int?)] {
    var copied: [(token: Token, source: Int?)] = []
    var position = start
    while copied.count < count, position < text.count {
      if let edit = substitutions.first(where: { text[position...].starts(with: $0.replaced) }) {
        copied += edit.replacement.map { ($0, nil) }
        position += edit.replaced.count
      } else {
        copied.append((text[position], position))
        position += 1
      }
    }
    return copied
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
