/// What one sequence's decode steps ask their driver to do next, in order: emit the text, cut
/// the sequence's cache to `cacheLength` tokens, then perform the action.
struct DecodeStep: Equatable {
  /// The driver's part of a step.
  enum Action: Equatable {
    /// Append `tokens` to the cache and pass back the logits that follow each of the last
    /// `outputs` of them, oldest first.
    ///
    /// When `candidates` are given (one list per output), only those tokens' logits are read, so
    /// the driver may compute no others.
    case evaluate([Token], outputs: Int, candidates: [[Token]]?)
    /// The generation is over.
    case finish(StopReason)
  }

  /// Text decoded since the last step, in pieces that never split a UTF-8 sequence: one per
  /// token taken (empty while a sequence is incomplete), and what remains when it finishes.
  var text: [String]
  /// The tokens the sequence's cache holds before the action: any after them are dropped
  /// (draft tokens the model refused, a forced token that a longer one replaced).
  var cacheLength: Int
  var action: Action
  /// Log probabilities of the tokens taken since the last step, of the prompt's tokens, each
  /// reported before the text (requests with `GenerationRequest.logProbabilities` only).
  var logProbabilities: [TokenLogProbability] = []
  var promptLogProbabilities: [TokenLogProbability] = []
  /// Whether the evaluation ends a prompt part (see `PartBoundaries`): the driver records it.
  var endsPromptPart = false
}
