import Foundation

/// The decode loop: reuses the cached prompt prefix, evaluates the rest, then samples (or takes
/// forced tokens) until the turn ends, the budget runs out, or the context is full.
///
/// Runs synchronously on the calling thread; `InferenceSession` calls it on its work queue.
struct Generator {
  let model: any TokenModel
  let backend: any TokenBackend

  func run(
    _ request: GenerationRequest, cancellation: CancellationFlag, progress: GenerationProgress? = nil,
    emit: (String) -> Void
  ) throws -> GenerationSummary {
    let started = DispatchTime.now()
    let prompt = request.promptTokens
    guard !prompt.isEmpty else { throw EngineError(.invalidRequest, "the prompt is empty") }
    guard prompt.count < backend.contextLength else {
      throw EngineError(
        .promptTooLong,
        "the prompt has \(prompt.count) tokens, which does not fit the context of \(backend.contextLength) tokens")
    }
    if let maximum = request.maximumTokens, maximum < 1 {
      throw EngineError(.invalidRequest, "maximumTokens must be positive, not \(maximum)")
    }
    var usage = GenerationUsage()
    usage.promptTokens = prompt.count
    // At least one prompt token is evaluated so that there are logits to sample from.
    let reused = min(Self.commonPrefixLength(backend.cachedTokens, prompt), prompt.count - 1)
    backend.truncateCache(to: reused)
    usage.cachedPromptTokens = reused
    // Under a constraint whose start allows few tokens (an object's `{`), only theirs are needed.
    let opening = request.constraint?.allowedTokens(limit: Self.candidateLimit).map { [$0] }
    var logits = try backend.evaluate(prompt[reused...], outputs: 1, candidates: opening, cancellation: cancellation)[0]
    usage.prefillSeconds = Self.seconds(since: started)

    var loop = DecodeState(request: request, model: model)
    var firstTokenTime: DispatchTime?
    var stopReason: StopReason
    // The tokens taken since the last evaluation, to be evaluated next.
    var batch: [Token] = []
    // A token the model chose in place of a forced one (see `heal`): taken, not yet evaluated.
    var carried: Token?

    func stopCondition() -> StopReason? {
      if request.constraint?.mustEnd == true { return .constraintComplete }
      if let maximum = request.maximumTokens, loop.generated.count >= maximum { return .maximumTokens }
      if backend.cachedTokens.count + batch.count >= backend.contextLength { return .contextFull }
      return nil
    }
    /// Accepts, records and emits one token of the output.
    func append(_ token: Token, forced: Bool) throws {
      try request.constraint?.accept(token)
      loop.append(token, forced: forced)
      progress?.record(generated: loop.generated.count)
      if firstTokenTime == nil { firstTokenTime = .now() }
      emit(loop.decoder.decode(model.piece(of: token)))
    }
    /// Appends `tokens` to the output and the batch, then says whether generation ends after them.
    func take(_ tokens: [Token], forced: Bool) throws -> StopReason? {
      for token in tokens {
        if model.isEndOfGeneration(token) { return .endOfTurn }
        try append(token, forced: forced)
        batch.append(token)
      }
      return stopCondition()
    }
    /// What is left of `budget` after the tokens that close the output and one to choose with.
    func spare(_ budget: Int) -> Int {
      budget - (request.constraint?.tokensToClose().count ?? 0) - 1
    }
    /// Boundary healing: `logits` precede the last token of the batch, a forced one. When the
    /// model prefers a longer token that begins with its text, that token replaces it (and is
    /// returned); the caller drops the forced token from the cache if it was evaluated.
    func heal(among extensions: [Token], logits: UnsafeBufferPointer<Float>) throws -> Token? {
      guard let forced = batch.last else { return nil }
      let chosen = loop.choose(among: [forced] + extensions, logits: logits)
      guard chosen != forced else { return nil }
      try request.constraint?.acceptExtension(of: forced, by: chosen)
      loop.replaceLast(by: chosen)
      emit(loop.decoder.decode(Array(model.piece(of: chosen).dropFirst(model.piece(of: forced).count))))
      return chosen
    }

    /// Up to `maximumDrafts` tokens from `PromptLookup` that the constraint allows one after
    /// another as the model's choices, each with the tokens allowed after it when few. Greedy
    /// decoding with a constraint only: a draft is confirmed by comparing it with the choice.
    func draft(budget: Int) -> [Draft] {
      guard loop.isGreedy, let constraint = request.constraint, let snapshot = constraint.snapshot() else { return [] }
      let room = min(
        Self.maximumDrafts, spare(budget), backend.contextLength - backend.cachedTokens.count - batch.count - 1)
      var drafts: [Draft] = []
      for token in PromptLookup.draft(in: request.promptTokens + loop.generated, count: room) {
        // Forced text comes next, or the token is not allowed: the draft ends.
        guard !model.isEndOfGeneration(token), constraint.forcedTokens().isEmpty, (try? constraint.accept(token)) != nil
        else { break }
        drafts.append(Draft(token: token, allowedAfter: constraint.allowedTokens(limit: Self.candidateLimit)))
      }
      constraint.restore(snapshot)
      return drafts
    }

    decoding: while true {
      if cancellation.isCancelled { throw EngineError(.cancelled, "cancelled") }
      let budget = min(
        (request.maximumTokens ?? .max) - loop.generated.count,
        backend.contextLength - backend.cachedTokens.count - 1)
      batch = []
      var endsForced: Bool
      if let token = carried {
        carried = nil
        batch = [token]
        endsForced = false
        if let stop = stopCondition() {
          stopReason = stop
          break decoding
        }
      } else {
        let (next, forced) = try loop.nextTokens(logits: logits, budget: budget)
        if let stop = try take(next, forced: forced) {
          stopReason = stop
          break decoding
        }
        endsForced = forced
      }
      // Forced text right after a sampled token goes into the same batch: the logits that
      // follow the sampled token would pick nothing, so one decode does the work of two.
      if !endsForced, let more = request.constraint?.forcedTokens(), !more.isEmpty {
        if let stop = try take(more, forced: true) {
          stopReason = stop
          break decoding
        }
        endsForced = true
      }
      var extensions: [Token] = []
      if endsForced, let constraint = request.constraint, let last = batch.last {
        extensions = constraint.extensions(of: last)
        // Like sampling, a longer token must leave the budget to close the output.
        if !extensions.isEmpty && spare(budget - batch.count) <= 0 { extensions = [] }
      }
      if !extensions.isEmpty && batch.count == 1 {
        // The logits at hand precede the forced token: choose before evaluating it.
        if let chosen = try heal(among: extensions, logits: logits) {
          carried = chosen
          continue decoding
        }
        extensions = []
      }
      // Speculation: after a sampled token, tokens that followed the same words before are
      // evaluated with it; those the model confirms are taken without a pass of their own.
      let drafts = extensions.isEmpty && !endsForced ? draft(budget: budget - batch.count) : []
      // When few tokens can follow, only their logits are computed.
      var candidates: [[Token]]?
      if let allowed = request.constraint?.allowedTokens(limit: Self.candidateLimit) {
        if !extensions.isEmpty {
          candidates = [[batch[batch.count - 1]] + extensions, allowed]
        } else if drafts.allSatisfy({ $0.allowedAfter != nil }) {
          candidates = [allowed] + drafts.compactMap(\.allowedAfter)
        }
      }
      let outputs = try backend.evaluate(
        (batch + drafts.map(\.token))[...], outputs: extensions.isEmpty ? 1 + drafts.count : 2, candidates: candidates,
        cancellation: cancellation)
      logits = outputs[outputs.count - 1]
      if !extensions.isEmpty, let chosen = try heal(among: extensions, logits: outputs[0]) {
        backend.truncateCache(to: backend.cachedTokens.count - 1)
        carried = chosen
      }
      if !drafts.isEmpty {
        // The model confirms a draft token when it is its own choice after the ones before.
        var confirmed = 0
        while confirmed < drafts.count, loop.choose(after: outputs[confirmed]) == drafts[confirmed].token {
          try append(drafts[confirmed].token, forced: false)
          confirmed += 1
        }
        loop.draftedTokens += drafts.count
        loop.confirmedDrafts += confirmed
        backend.truncateCache(to: backend.cachedTokens.count - (drafts.count - confirmed))
        logits = outputs[confirmed]
        batch = []
        if let stop = stopCondition() {
          stopReason = stop
          break decoding
        }
      }
    }
    emit(loop.decoder.finish())

    let ended = DispatchTime.now()
    let first = firstTokenTime ?? ended
    usage.generatedTokens = loop.generated.count
    usage.forcedTokens = loop.forcedCount
    usage.draftTokens = loop.draftedTokens
    usage.confirmedDraftTokens = loop.confirmedDrafts
    usage.timeToFirstTokenSeconds = Self.seconds(since: started, until: first)
    usage.decodeSeconds = Self.seconds(since: first, until: ended)
    return GenerationSummary(stopReason: stopReason, usage: usage, tokens: loop.generated)
  }

  /// The most draft tokens evaluated with a sampled one (a decode of four tokens costs about
  /// 1.3 of one on Qwen 1.5B; `fm-bench batches`).
  static let maximumDrafts = 3

  /// The most allowed tokens for which the generator asks for those logits only: computing
  /// 1,024 rows of Qwen's output matrix takes about a millisecond, all 151,936 about 15.
  static let candidateLimit = 1024

  static func commonPrefixLength(_ a: [Token], _ b: [Token]) -> Int {
    var count = 0
    let limit = min(a.count, b.count)
    while count < limit && a[count] == b[count] { count += 1 }
    return count
  }

  static func seconds(since start: DispatchTime, until end: DispatchTime = .now()) -> Double {
    Double(end.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }
}
