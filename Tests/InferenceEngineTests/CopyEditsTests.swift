import Testing

@testable import InferenceEngine

/// The edits a rewrite makes to the text it copies (`CopyEdits`): learnt between a refused
/// copy and the next confirmed one, made in later copies, and undone where the output ends in
/// their words.
@Suite struct CopyEditsTests {
  /// Eight tokens, a copied span's match (`DraftPolicy.copyMatch`).
  let lead: [Token] = Array(30..<38)

  /// What the output wrote between leaving the text and copying it again replaces what the
  /// text held between, their common ends aside; one too far from where it left is not learnt.
  @Test func anEditIsLearntBetweenARefusalAndTheNextCopy() {
    let prompt: [Token] = [1, 2, 3, 4, 5, 6, 7]
    var edits = CopyEdits()
    // [1, 2] copied; the guess 3 (prompt position 2) refused; the model wrote 8 and 4, then
    // the guess 5 (position 4) confirmed: 3 became 8.
    edits.refused(prompt[2], source: 2, output: 2, prompt: prompt)
    edits.confirmed(source: 4, output: 4, prompt: prompt, generated: [1, 2, 8, 4, 5])
    #expect(edits.substitutions == [CopyEdits.Substitution(replaced: [3], replacement: [8])])

    var far = CopyEdits()
    far.refused(prompt[2], source: 2, output: 2, prompt: prompt)
    let long = [1, 2] + [Token](repeating: 9, count: CopyEdits.window + 1)
    far.confirmed(source: 4, output: long.count, prompt: prompt, generated: long + [5])
    #expect(far.substitutions.isEmpty)
    // A guess refused that far after where the output left the text is where it left it now.
    var stale = CopyEdits()
    stale.refused(prompt[2], source: 2, output: 2, prompt: prompt)
    stale.refused(prompt[2], source: 2, output: long.count, prompt: prompt)
    stale.confirmed(source: 4, output: long.count + 2, prompt: prompt, generated: long + [8, 4, 5])
    #expect(stale.substitutions == [CopyEdits.Substitution(replaced: [3], replacement: [8])])
  }

  /// A copy of the text makes the edits learnt, and where the output ends in the first words
  /// of an edit, the text is looked up as it was there, and the copy goes on with the rest of
  /// the edit's words.
  @Test func copiesMakeTheEditsAndGoOnAfterThem() {
    var edits = CopyEdits()
    let prompt = lead + [3, 4, 40, 41, 42]
    edits.refused(prompt[8], source: 8, output: 8, prompt: prompt)
    edits.confirmed(source: 10, output: 10, prompt: prompt, generated: lead + [8, 9, 40])
    #expect(edits.substitutions == [CopyEdits.Substitution(replaced: [3, 4], replacement: [8, 9])])

    let copied = edits.find(in: prompt + lead, promptCount: prompt.count, count: 4)
    #expect(copied.found.match == 8)
    #expect(copied.guesses.map(\.token) == [8, 9, 40, 41])
    #expect(copied.guesses.map(\.source) == [nil, 9, 10, 11])

    let resumed = edits.find(in: prompt + lead + [8], promptCount: prompt.count, count: 3)
    #expect(resumed.found.match >= DraftPolicy.copyMatch)
    #expect(resumed.guesses.map(\.token) == [9, 40, 41])
    #expect(resumed.guesses.map(\.source) == [9, 10, 11])
  }

  /// Shortly after the output copied the text last, the copy resumes where the output's last
  /// tokens occur near where it stopped: on one token close to it, on more a little further on,
  /// the longest match first; not long after.
  @Test func aCopyResumesNearWhereTheOutputLastCopiedTheText() {
    // Prompt positions 0–7 the lead, then 50…, with 61 at 11 and 70 71 at 20 21.
    var prompt = lead + [Token](50..<80)
    prompt[11] = 61
    prompt[20] = 70
    prompt[21] = 71
    var edits = CopyEdits()
    #expect(edits.realign(prompt + [61], promptCount: prompt.count) == nil)
    // The output copied the lead (the last copied token at prompt position 7), then wrote 99.
    edits.confirmed(source: 7, output: 7, prompt: prompt, generated: lead)
    #expect(edits.realign(prompt + lead + [99], promptCount: prompt.count) == nil)
    // One token found 4 after the copy's last: it goes on after it.
    let near = prompt + lead + [99, 61]
    #expect(edits.realign(near, promptCount: prompt.count) == CopyEdits.Realigned(match: 1, start: 12))
    let found = edits.find(in: near, promptCount: prompt.count, count: 3)
    #expect(found.realigned)
    #expect(found.guesses.map(\.token) == Array(prompt[12..<15]))
    #expect(found.guesses.map(\.source) == [12, 13, 14])
    // One token found 13 after it is too far; two are not.
    #expect(edits.realign(prompt + lead + [99, 71], promptCount: prompt.count) == nil)
    #expect(
      edits.realign(prompt + lead + [99, 70, 71], promptCount: prompt.count)
        == CopyEdits.Realigned(match: 2, start: 22))
    // Long after the copy, the output is not read as that copy's text.
    let late = prompt + lead + [Token](repeating: 99, count: CopyEdits.window) + [61]
    #expect(edits.realign(late, promptCount: prompt.count) == nil)
  }

  /// Without edits the lookup is `PromptLookup`'s, each guess with the position it copies.
  @Test func withoutEditsTheLookupIsPromptLookups() {
    let context: [Token] = [1, 2, 3, 9, 5, 2, 3, 8, 1, 2, 3]
    let copied = CopyEdits().find(in: context, promptCount: 5, count: 2)
    #expect(copied.found == PromptLookup.find(in: context, count: 2))
    #expect(!copied.realigned)
    #expect(copied.guesses.map(\.token) == [9, 5])
    #expect(copied.guesses.map(\.source) == [3, 4])
  }
}
