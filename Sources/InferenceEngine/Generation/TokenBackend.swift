/// One context's key/value cache and forward pass, used from one thread at a time.
///
/// The backend remembers which tokens its cache holds so the generator can reuse the longest
/// common prefix across turns.
public protocol TokenBackend: AnyObject {
  /// The context length in tokens.
  var contextLength: Int { get }
  /// The tokens whose keys and values are in the cache, in order.
  var cachedTokens: [Token] { get }
  /// Where prompt parts evaluated into the cache end (see `PartBoundaries`).
  var partBoundaries: PartBoundaries { get }
  /// Whether a prompt part evaluated on its own leaves the cache as a fresh evaluation of it
  /// would, to the bit (`PartBoundaries` says why that matters), so that a prompt is worth
  /// evaluating part by part, one decode each (`DecodeSteps.promptPlan`).
  ///
  /// A backend whose decodes hold other sequences' rows beside a part (`BatchedModel`'s) gives
  /// no such cache however the prompt is split: there a part only costs a decode, and a new
  /// request's first token would wait for one per part. The default is true.
  var evaluatesPartsExactly: Bool { get }
  /// The fewest rows an evaluation needs for its last row's logits to be those the same row gets
  /// in a larger evaluation: 1 where one row rounds as a batch's does (llama.cpp's flash
  /// attention), 2 under its plain attention kernel, whose one-row products round otherwise
  /// (`AttentionKernel.consistentRows`). Where parts are not evaluated exactly, a prompt found
  /// whole in the cache is evaluated from that many tokens before its end, so the same request
  /// twice gets the same logits. The default is 1.
  var consistentRows: Int { get }
  /// The most draft tokens worth evaluating after the next sampled one (see
  /// `DecodeSteps.draft(budget:cancellation:)`), asked before every step.
  ///
  /// Where a decode holds this sequence's rows only, as many as it returns logits for (the
  /// default, `DecodeSteps.maximumDrafts`, fits the four every backend returns; a llama.cpp
  /// context takes 31): `DraftPolicy` decides how many of them pay.
  var draftTokenLimit: Int { get }
  /// Whether the next decode holds other sequences' rows beside this one's (`BatchedModel`'s
  /// while another slot runs), asked before every step. The default is false.
  ///
  /// Each draft row then costs about as much as a running sequence's token, and every one of
  /// them waits for it: only drafts that are nearly always confirmed pay, spans the text copies
  /// (`DraftPolicy.copyMatch`), and no draft model runs.
  var sharesDecodes: Bool { get }
  /// What decodes of this backend cost by their rows, shared with every backend on the same
  /// model and threads (`DecodeCosts`, measured before the model's first speculative request):
  /// drafts are cut to what pays. The default, nil, drafts as `DraftPolicy` proposes.
  var decodeCosts: DecodeCosts? { get }
  /// Drops cached tokens from position `count` on, and the part boundaries after it.
  func truncateCache(to count: Int)
  /// Records that the tokens evaluated last end a prompt part (see `DecodeSteps.promptPlan`).
  func markPartBoundary()
  /// Appends `tokens` to the cache and returns the logits that follow each of the last
  /// `outputs` of them, oldest first (`outputs` is at least 1 and at most `tokens.count` and
  /// `maximumOutputs`).
  ///
  /// - Parameter candidates: when given (one list per output), only these tokens' logits are
  ///   needed; the others may be anything (a backend may skip computing them).
  ///
  /// The buffers stay valid until the next call. When `flag` is cancelled the call stops
  /// early, keeps what it evaluated in `cachedTokens`, and throws `EngineError.Code.cancelled`.
  func evaluate(
    _ tokens: ArraySlice<Token>, outputs: Int, candidates: [[Token]]?, cancellation flag: CancellationFlag
  ) throws -> [UnsafeBufferPointer<Float>]
  /// Called before a request plans its prompt, with the whole prompt: a backend that shares a
  /// context among sessions (`BatchedModel`) chooses the cache the request runs on here, the
  /// one holding the longest prefix of `prompt`, and may wait for one to be free.
  ///
  /// A backend with a cache of its own has nothing to choose; the default does nothing.
  /// - Throws: `EngineError.Code.cancelled` when `flag` is cancelled while waiting.
  func beginRequest(prompt: [Token], cancellation flag: CancellationFlag) throws
  /// Called when the request that `beginRequest` began ends, however it ends: a shared cache
  /// goes back to the pool, holding what the request left in it.
  func endRequest()
  /// Called when a request finishes, with the tokens it drafted and those of them the model
  /// confirmed: a shared backend counts them for its model (`BatchStatistics`). The default
  /// does nothing.
  func countDrafts(_ drafted: Int, confirmed: Int)
}

extension TokenBackend {
  public var evaluatesPartsExactly: Bool { true }

  public var consistentRows: Int { 1 }

  public var draftTokenLimit: Int { DecodeSteps.maximumDrafts }

  public var sharesDecodes: Bool { false }

  public var decodeCosts: DecodeCosts? { nil }

  public func beginRequest(prompt: [Token], cancellation flag: CancellationFlag) throws {}

  public func endRequest() {}

  public func countDrafts(_ drafted: Int, confirmed: Int) {}

  /// The most logits one `evaluate` returns.
  public static var maximumOutputs: Int { 4 }

  /// Refuses a request for logits `evaluate` cannot serve: fewer than one output, more than
  /// `tokens` or `limit`, or candidate lists that do not match the outputs one to one.
  public static func checkOutputs(_ outputs: Int, tokens: Int, candidates: [[Token]]?, limit: Int = maximumOutputs)
    throws
  {
    guard outputs >= 1, outputs <= min(tokens, limit), candidates.map({ $0.count == outputs }) ?? true else {
      throw EngineError(.invalidRequest, "cannot return \(outputs) logits for \(tokens) tokens")
    }
  }

  /// Refuses an `evaluate` this backend cannot serve: nothing to evaluate, logits it cannot
  /// return (`checkOutputs`), or more tokens than the context has room for.
  public func checkEvaluation(
    _ tokens: ArraySlice<Token>, outputs: Int, candidates: [[Token]]?, limit: Int = maximumOutputs
  ) throws {
    guard !tokens.isEmpty else { throw EngineError(.invalidRequest, "nothing to evaluate") }
    try Self.checkOutputs(outputs, tokens: tokens.count, candidates: candidates, limit: limit)
    guard cachedTokens.count + tokens.count <= contextLength else {
      throw EngineError(
        .contextFull, "\(cachedTokens.count + tokens.count) tokens do not fit the context of \(contextLength)")
    }
  }

  /// Appends `tokens` to the cache and returns the logits that follow the last of them.
  public func evaluate(_ tokens: ArraySlice<Token>, cancellation flag: CancellationFlag) throws
    -> UnsafeBufferPointer<Float>
  {
    // One output was asked for, so there is exactly one.
    try evaluate(tokens, outputs: 1, candidates: nil, cancellation: flag)[0]
  }
}
