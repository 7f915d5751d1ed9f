/// Whether a generation guesses the tokens ahead for the model to confirm in the pass that
/// evaluates its next token (speculative decoding; see `DecodeSteps`).
///
/// Speculation never changes what is generated: a greedy request takes the model's own choice
/// at every position, and a sampled one keeps the model's distribution (`Sampler.verify`). It
/// changes how many forward passes the tokens cost, and pauses itself in a request where its
/// guesses are refused too often to pay (`DraftPolicy`).
public enum Speculation: String, Sendable, Equatable, CaseIterable {
  /// Prompt lookup: where the last few tokens occurred before, in the prompt or the output so
  /// far, the tokens that followed them then are guessed next (`PromptLookup`). Rewriting,
  /// editing or extracting from a given text repeats long spans of it.
  case lookup
  /// Prompt lookup where the text repeats a span, and elsewhere a draft model's guesses: a
  /// smaller model with the same vocabulary, on a cache of its own (`InferenceSession`'s
  /// `draftModel`). Each guess costs a decode of the draft model, so it pays where that is
  /// much cheaper than the model's own and guesses right often.
  case draft
  /// One token chosen per forward pass. Tokens a constraint forces are still evaluated
  /// together (they are certain, not guessed).
  case off
}
