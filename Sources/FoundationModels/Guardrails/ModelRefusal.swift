/// A refusal during guided generation: the model declined (it wrote a refusal into the schema's
/// strings, or its provider threw `LanguageModelError.refusal`), with the exchange it refused.
///
/// Reported as `GenerationError.refusal`, whose `explanation` asks the same model why, or as
/// `LanguageModelError.refusal` for a 27 session.
struct ModelRefusal: Error {
  /// The instructions, the conversation and the turn up to the refusal.
  var entries: [Transcript.Entry]
  /// The model that refused, which explains the refusal.
  var runner: ModelRunner
  var debugDescription: String
}
