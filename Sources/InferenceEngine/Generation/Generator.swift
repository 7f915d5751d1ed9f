import Foundation

/// Drives the `DecodeSteps` of one request on a `TokenBackend`: performs each step on the
/// backend's cache, emits the text, reports progress and measures the timings.
///
/// Runs synchronously on the calling thread; `InferenceSession` calls it on its work queue.
struct Generator {
  let model: any TokenModel
  let backend: any TokenBackend
  /// The draft model of requests that speculate with one (`Speculation.draft`).
  var drafter: ModelDrafter? = nil

  /// Generates a reply to `request`, reusing the prompt prefix the backend's cache holds.
  /// - Parameters:
  ///   - cancellation: stops the prompt's evaluation within a batch and generation between tokens.
  ///   - progress: receives the number of tokens generated after each step.
  ///   - emit: receives the text as it is decoded, in pieces that may be empty, each piece's
  ///     log probabilities before it when the request asks for them.
  /// - Throws: `EngineError` for an invalid request, a prompt that does not fit, a failed
  ///   evaluation or cancellation.
  func run(
    _ request: GenerationRequest, cancellation: CancellationFlag, progress: GenerationProgress? = nil,
    emit: (GenerationEvent) -> Void
  ) throws -> GenerationSummary {
    let started = DispatchTime.now()
    // Refused before it takes a slot.
    try DecodeSteps.check(request, contextLength: backend.contextLength)
    try backend.beginRequest(prompt: request.promptTokens, cancellation: cancellation)
    defer { backend.endRequest() }
    var request = request
    // A scored prompt is reported token by token as it was given: it is not spliced.
    if !backend.evaluatesPartsExactly, request.logProbabilities?.includesPrompt != true,
      let spliced = PromptSplice.onto(
        cached: backend.cachedTokens, prompt: request.promptTokens, boundaries: request.promptBoundaries, model: model)
    {
      request.promptTokens = spliced.tokens
      request.promptBoundaries = spliced.boundaries
    }
    var steps = try DecodeSteps(
      request: request, model: model, contextLength: backend.contextLength, drafter: drafter)
    // A model's first speculative request measures what its decodes cost (`DecodeCosts`), here
    // before the answer's first token rather than at its first draft.
    if request.speculation != .off {
      _ = backend.decodeCosts?.measured
      _ = drafter?.oneRowSeconds
    }
    var step = steps.start(
      cachedTokens: backend.cachedTokens, boundaries: backend.partBoundaries,
      exactParts: backend.evaluatesPartsExactly, consistentRows: backend.consistentRows)
    var prefilled: DispatchTime?
    var firstToken: DispatchTime?
    while true {
      if firstToken == nil && !steps.generated.isEmpty { firstToken = .now() }
      progress?.record(generated: steps.generated.count)
      if !step.promptLogProbabilities.isEmpty { emit(.promptLogProbabilities(step.promptLogProbabilities)) }
      if !step.logProbabilities.isEmpty { emit(.logProbabilities(step.logProbabilities)) }
      for piece in step.text { emit(.text(piece)) }
      backend.truncateCache(to: step.cacheLength)
      switch step.action {
      case .evaluate(let tokens, let outputs, let candidates):
        progress?.recordEvaluationStarted()
        let logits = try backend.evaluate(
          tokens[...], outputs: outputs, candidates: candidates, cancellation: cancellation)
        if step.endsPromptPart { backend.markPartBoundary() }
        if prefilled == nil { prefilled = .now() }
        steps.draftLimit = backend.draftTokenLimit
        steps.sharedDecodes = backend.sharesDecodes
        steps.decodeCosts = backend.sharesDecodes ? nil : backend.decodeCosts
        step = try steps.next(after: logits, cancellation: cancellation)
      case .finish(let reason):
        let ended = DispatchTime.now()
        let first = firstToken ?? ended
        var usage = steps.usage
        usage.prefillSeconds = Self.seconds(since: started, until: prefilled ?? ended)
        usage.timeToFirstTokenSeconds = Self.seconds(since: started, until: first)
        usage.decodeSeconds = Self.seconds(since: first, until: ended)
        backend.countDrafts(usage.draftTokens, confirmed: usage.confirmedDraftTokens)
        return GenerationSummary(stopReason: reason, usage: usage, tokens: steps.generated)
      }
    }
  }

  static func seconds(since start: DispatchTime, until end: DispatchTime) -> Double {
    Double(end.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }
}
