import Foundation

/// The per-request state of the decode loop: sampler, masked-logits scratch space, output.
struct DecodeState {
  let constraint: (any TokenConstraint)?
  var sampler: Sampler
  var decoder = UTF8StreamDecoder()
  var generated: [Token] = []
  var forcedCount = 0
  var draftedTokens = 0
  var confirmedDrafts = 0
  private var scratch: [Float] = []

  /// Whether every choice is the most likely allowed token.
  var isGreedy: Bool { sampler.parameters.strategy == .greedy || sampler.parameters.temperature <= 0 }

  init(request: GenerationRequest, model: any TokenModel) {
    constraint = request.constraint
    sampler = Sampler(request.sampling)
    if constraint != nil { scratch = [Float](repeating: 0, count: model.vocabularySize) }
  }

  mutating func append(_ token: Token, forced: Bool) {
    generated.append(token)
    if forced { forcedCount += 1 }
  }

  /// Puts `token`, chosen by the model, in place of the last token, a forced one.
  mutating func replaceLast(by token: Token) {
    generated[generated.count - 1] = token
    forcedCount -= 1
  }

  /// Samples one of `candidates` by their logits, as if all others were masked.
  mutating func choose(among candidates: [Token], logits: UnsafeBufferPointer<Float>) -> Token {
    scratch.withUnsafeMutableBufferPointer { buffer in
      buffer.update(repeating: -.infinity)
      for token in candidates { buffer[Int(token)] = logits[Int(token)] }
      return sampler.sample(UnsafeBufferPointer(buffer))
    }
  }

  /// The tokens to append next and whether they were forced rather than sampled.
  /// - Parameter sampled: the token already drawn at this position, by `verify` where it refused
  ///   a draft; it is taken unless the budget makes the constraint close the output.
  mutating func nextTokens(logits: UnsafeBufferPointer<Float>, budget: Int, sampled: Token? = nil) throws -> (
    [Token], Bool
  ) {
    guard let constraint else { return ([sampled ?? sampler.sample(logits)], false) }
    let forced = constraint.forcedTokens()
    if !forced.isEmpty { return (forced, true) }
    // Keep enough budget to close the structure validly: when only that much is left, close.
    if constraint.closingTokenBound + 1 > budget {
      let closing = constraint.tokensToClose()
      if !closing.isEmpty && closing.count + 1 > budget { return (closing, true) }
    }
    let token = sampled ?? choose(after: logits, budget: budget)
    // Near the end, a choice must leave room for the forced text it brings and for closing
    // what follows: after `,` in an object of any members, the forced `"` of the next key
    // would otherwise use the last of the budget and leave the output cut open. Closing now
    // fits, since the test above did not close.
    guard constraint.closingTokenBound + Self.lookahead >= budget,
      let needed = Self.tokensNeeded(after: token, by: constraint), needed > budget
    else { return ([token], false) }
    let closing = constraint.tokensToClose()
    return closing.isEmpty || closing.count > budget ? ([token], false) : (closing, true)
  }

  /// How close to the end of the budget (beyond the closing's bound) each choice is checked
  /// with `tokensNeeded(after:by:)`: far from it, no forced run or closing is that long.
  static let lookahead = 64

  /// The tokens `token` takes with the forced text that follows it and the closing after that,
  /// or nil when the constraint cannot say (no snapshots, or it refuses the token).
  static func tokensNeeded(after token: Token, by constraint: any TokenConstraint) -> Int? {
    guard let snapshot = constraint.snapshot() else { return nil }
    defer { constraint.restore(snapshot) }
    do {
      try constraint.accept(token)
      let forced = constraint.forcedTokens()
      for forcedToken in forced { try constraint.accept(forcedToken) }
      return 1 + forced.count + constraint.tokensToClose().count
    } catch {
      return nil
    }
  }

  /// Samples from `logits` among the tokens the constraint allows now and, with a `budget`,
  /// after which the output can still be closed within it.
  mutating func choose(after logits: UnsafeBufferPointer<Float>, budget: Int? = nil) -> Token {
    guard let constraint else { return sampler.sample(logits) }
    mask(logits, by: constraint, budget: budget)
    return scratch.withUnsafeBufferPointer { sampler.sample($0) }
  }

  /// The token taken where `draft` was guessed after `logits`: the draft when the model
  /// confirms it, else the model's own choice, as `choose(after:)` makes it (greedy) or drawn
  /// so that speculation leaves the distribution of the output unchanged (`Sampler.verify`).
  mutating func verify(_ draft: Token, after logits: UnsafeBufferPointer<Float>) -> Token {
    if isGreedy { return choose(after: logits) }
    guard let constraint else { return sampler.verify(draft, logits: logits) }
    mask(logits, by: constraint, budget: nil)
    return scratch.withUnsafeBufferPointer { sampler.verify(draft, logits: $0) }
  }

  /// Sets `scratch` to `logits` masked by `constraint` (and, with a `budget`, to the tokens
  /// after which the output can still be closed within it).
  private mutating func mask(_ logits: UnsafeBufferPointer<Float>, by constraint: any TokenConstraint, budget: Int?) {
    scratch.withUnsafeMutableBufferPointer { buffer in
      _ = buffer.update(fromContentsOf: logits)
      constraint.mask(buffer)
      if let budget { constraint.maskUnclosable(buffer, budget: budget) }
    }
  }
}
