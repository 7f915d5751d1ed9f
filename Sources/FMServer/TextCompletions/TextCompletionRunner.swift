import Foundation
import FoundationModels
import InferenceEngine

/// Runs one text completion on the served model: the prompt's tokens as they are (no chat
/// template), the completion's text as it comes with `stop` texts cut out, and each token's
/// log probability placed in that text when the request asks for them.
struct TextCompletionRunner {
  let model: ServedModel

  /// A token of the answer with its log probability (`logprobs`).
  struct ScoredToken: Sendable {
    /// The token's text; a piece of a character as `bytes:\xNN`, as OpenAI writes it.
    var text: String
    /// Nil for the prompt's first token, which no logits precede.
    var logProbability: Float?
    /// The most likely tokens at its position, most likely first.
    var alternatives: [(text: String, logProbability: Float)]
    /// Where its text begins in the answer's text (the prompt's included with `echo`), in
    /// characters (Unicode scalars, as Python counts them: OpenAI's `text_offset`).
    var offset: Int
  }

  /// A piece of the answer: text, and the tokens whose text begins in it.
  struct Piece: Sendable {
    var text: String
    var tokens: [ScoredToken]
  }

  /// A request checked to fit the context, ready to generate.
  struct Prepared: Sendable {
    var generation: GenerationRequest
    var request: TextCompletionRequest
    /// The request's guardrail checks, when the server runs them (a free-text answer's).
    var checks: RequestGuardrails.Checks?
  }

  /// Tokenizes the prompt as llama-server does (no control tokens from its text; the model's
  /// BOS token where its vocabulary asks for one) and checks that it fits the context, before
  /// anything is sent to the client.
  /// - Throws: `APIError` 400 for an empty prompt or one that does not fit, and 400
  ///   `content_filter` for one the guardrails (`--guardrails`) block.
  func prepare(_ request: TextCompletionRequest) async throws -> Prepared {
    let tokens = try await model.tokenModel().rawPromptTokens(request.prompt)
    guard !tokens.isEmpty else { throw APIError.invalid("'prompt' is empty", param: "prompt") }
    let room = model.contextSize - tokens.count
    guard room > 0 else {
      throw APIError.invalid(
        "This model's maximum context length is \(model.contextSize) tokens. However, your prompt resulted in \(tokens.count) tokens.",
        param: "prompt", code: "context_length_exceeded")
    }
    // The prompt's tokens are scored for `echo` with `logprobs`, and for `max_tokens` 0, which
    // asks for nothing else.
    let maximum = min(request.options.maximumResponseTokens ?? TextCompletionRequest.defaultMaximumTokens, room)
    let scoresPrompt = request.echo && (request.logProbabilities != nil || maximum == 0)
    let scoring = (request.logProbabilities ?? (scoresPrompt ? 0 : nil)).map {
      GenerationRequest.LogProbabilities(alternatives: $0, includesPrompt: scoresPrompt)
    }
    let generation = GenerationRequest(
      promptTokens: tokens, sampling: request.options.samplingParameters, maximumTokens: maximum,
      logProbabilities: scoring, speculation: model.model.speculation.engineValue)
    let checks = model.guardrails?.checks(generatesString: true)
    try await RequestGuardrails.Checks.refusingBlockedInput(param: "prompt") {
      try await checks?.checkInput(request.prompt, source: "the prompt")
    }
    return Prepared(generation: generation, request: request, checks: checks)
  }

  /// Generates, calling `deliver` with each piece of the answer: with `echo` the prompt first,
  /// when the model starts (so a request refused by the slot pool has sent nothing). With
  /// `--guardrails`, a blocked answer ends where it was blocked, without the text (or the
  /// tokens) that blocked it; `whole` (a request without `stream`) holds every piece until the
  /// whole answer passed, so a blocked one delivers nothing.
  /// - Throws: the model's errors; `CancellationError` when the task is cancelled.
  func run(_ prepared: Prepared, whole: Bool = false, deliver: (Piece) async throws -> Void) async throws
    -> CompletionRunner.Summary
  {
    let tokenModel = try await model.tokenModel()
    let request = prepared.request
    let reportsTokens = request.logProbabilities != nil
    let base = request.echo ? request.prompt.unicodeScalars.count : 0
    var echoPending = request.echo
    var filter = StopSequenceFilter(stops: request.stop)
    var generated = ""
    var generatedLength = 0
    var deliveredLength = 0
    // Scored tokens whose text has not been delivered yet (held by the stop filter, or not
    // decoded yet).
    var pending: [ScoredToken] = []
    var summary: GenerationSummary?
    var answer = GuardedAnswer<Piece>(checks: prepared.checks, whole: whole)
    // What the client gets of the answer: without a stop text and what followed it.
    var visibleText = ""

    func deliverText(_ text: String, final: Bool) async throws {
      visibleText += text
      deliveredLength += text.unicodeScalars.count
      let end = base + deliveredLength
      let count = final && !filter.stopped ? pending.count : (pending.firstIndex { $0.offset >= end } ?? pending.count)
      let tokens = Array(pending.prefix(count))
      pending.removeFirst(count)
      if !text.isEmpty || !tokens.isEmpty { try await answer.send(Piece(text: text, tokens: tokens), to: deliver) }
    }
    func deliverPrompt(_ scores: [TokenLogProbability]) async throws {
      echoPending = false
      try await answer.send(
        Piece(text: request.prompt, tokens: reportsTokens ? Self.placed(scores, model: tokenModel) : []), to: deliver)
    }

    try await model.generate(prepared.generation) { event in
      if echoPending, case .promptLogProbabilities(let scores) = event {
        try await deliverPrompt(scores)
        return .proceed
      }
      if echoPending { try await deliverPrompt([]) }
      switch event {
      case .promptLogProbabilities:
        break
      case .logProbabilities(let scores):
        guard reportsTokens else { break }
        pending += scores.map { Self.scored($0, model: tokenModel, offset: base + generatedLength) }
      case .text(let text):
        generated += text
        generatedLength += text.unicodeScalars.count
        // Checked before it is sent: a blocked answer ends here, without the text that blocked it.
        if try await answer.blocks(growing: generated) { return .stop }
        try await deliverText(filter.feed(text), final: false)
      case .finished(let finished):
        summary = finished
      }
      // A stop text ends the answer: the rest of the generation is not needed.
      return filter.stopped ? .stop : .proceed
    }
    let rest = answer.isBlocked ? "" : filter.finish()
    try await answer.checkWhole(visibleText + rest)
    // A blocked answer's last tokens (those past the text sent) are not sent either.
    try await deliverText(answer.isBlocked ? "" : rest, final: !answer.isBlocked)
    try await answer.release(to: deliver)
    // Cut short by a stop text, the engine reports no count: the tokens of what it wrote are it.
    let completionTokens =
      if let summary { summary.usage.generatedTokens } else {
        tokenModel.tokenize(generated, parseSpecial: false).count
      }
    let reachedLimit = !filter.stopped && [.maximumTokens, .contextFull].contains(summary?.stopReason)
    return CompletionRunner.Summary(
      finishReason: reachedLimit ? .maximumTokens : .endOfTurn, promptTokens: prepared.generation.promptTokens.count,
      completionTokens: completionTokens, cachedPromptTokens: summary?.usage.cachedPromptTokens,
      contentFiltered: answer.isBlocked)
  }

  /// The prompt's scored tokens, each placed where its text begins in the prompt's text.
  static func placed(_ scores: [TokenLogProbability], model: any TokenModel) -> [ScoredToken] {
    var decoder = UTF8StreamDecoder()
    var length = 0
    return scores.map { score in
      defer { length += decoder.decode(model.piece(of: score.token)).unicodeScalars.count }
      return scored(score, model: model, offset: length)
    }
  }

  static func scored(_ score: TokenLogProbability, model: any TokenModel, offset: Int) -> ScoredToken {
    ScoredToken(
      text: text(of: score.token, model: model), logProbability: score.logProbability,
      alternatives: score.alternatives.map { (text(of: $0.token, model: model), $0.logProbability) }, offset: offset)
  }

  /// A token's text as OpenAI lists it: its characters, or `bytes:` and its bytes as `\xNN`
  /// when they are a piece of a character.
  static func text(of token: Token, model: any TokenModel) -> String {
    let bytes = model.piece(of: token)
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    return "bytes:" + bytes.map { String(format: "\\x%02x", $0) }.joined()
  }
}
