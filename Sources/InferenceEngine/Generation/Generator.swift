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
    var logits = try backend.evaluate(prompt[reused...], cancellation: cancellation)
    usage.prefillSeconds = Self.seconds(since: started)

    var loop = DecodeState(request: request, model: model)
    var firstTokenTime: DispatchTime?
    var stopReason: StopReason
    decoding: while true {
      if cancellation.isCancelled { throw EngineError(.cancelled, "cancelled") }
      let budget = min(
        (request.maximumTokens ?? .max) - loop.generated.count,
        backend.contextLength - backend.cachedTokens.count - 1)
      var (next, forced) = try loop.nextTokens(logits: logits, budget: budget)
      var batch: [Token] = []
      while true {
        for token in next {
          if model.isEndOfGeneration(token) {
            stopReason = .endOfTurn
            break decoding
          }
          try request.constraint?.accept(token)
          loop.append(token, forced: forced)
          batch.append(token)
          progress?.record(generated: loop.generated.count)
          if firstTokenTime == nil { firstTokenTime = .now() }
          emit(loop.decoder.decode(model.piece(of: token)))
        }
        if request.constraint?.mustEnd == true {
          stopReason = .constraintComplete
          break decoding
        }
        if let maximum = request.maximumTokens, loop.generated.count >= maximum {
          stopReason = .maximumTokens
          break decoding
        }
        if backend.cachedTokens.count + batch.count >= backend.contextLength {
          stopReason = .contextFull
          break decoding
        }
        // Forced text right after a sampled token goes into the same batch: the logits that
        // follow the sampled token would pick nothing, so one decode does the work of two.
        guard !forced, let more = request.constraint?.forcedTokens(), !more.isEmpty else { break }
        (next, forced) = (more, true)
      }
      logits = try backend.evaluate(batch[...], cancellation: cancellation)
    }
    emit(loop.decoder.finish())

    let ended = DispatchTime.now()
    let first = firstTokenTime ?? ended
    usage.generatedTokens = loop.generated.count
    usage.forcedTokens = loop.forcedCount
    usage.timeToFirstTokenSeconds = Self.seconds(since: started, until: first)
    usage.decodeSeconds = Self.seconds(since: first, until: ended)
    return GenerationSummary(stopReason: stopReason, usage: usage, tokens: loop.generated)
  }

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

/// The per-request state of the decode loop: sampler, masked-logits scratch space, output.
private struct DecodeState {
  let constraint: (any TokenConstraint)?
  var sampler: Sampler
  var decoder = UTF8StreamDecoder()
  var generated: [Token] = []
  var forcedCount = 0
  private var scratch: [Float] = []

  init(request: GenerationRequest, model: any TokenModel) {
    constraint = request.constraint
    sampler = Sampler(request.sampling)
    if constraint != nil { scratch = [Float](repeating: 0, count: model.vocabularySize) }
  }

  mutating func append(_ token: Token, forced: Bool) {
    generated.append(token)
    if forced { forcedCount += 1 }
  }

  /// The tokens to append next and whether they were forced rather than sampled.
  mutating func nextTokens(logits: UnsafeBufferPointer<Float>, budget: Int) throws -> ([Token], Bool) {
    guard let constraint else { return ([sampler.sample(logits)], false) }
    let forced = constraint.forcedTokens()
    if !forced.isEmpty { return (forced, true) }
    // Keep enough budget to close the structure validly: when only that much is left, close.
    let closing = constraint.tokensToClose()
    if !closing.isEmpty && closing.count + 1 > budget { return (closing, true) }
    _ = scratch.withUnsafeMutableBufferPointer { buffer in
      buffer.update(fromContentsOf: logits)
    }
    return scratch.withUnsafeMutableBufferPointer { buffer in
      constraint.mask(buffer)
      return ([sampler.sample(UnsafeBufferPointer(buffer))], false)
    }
  }
}
