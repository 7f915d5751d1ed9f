/// Leaves a model's thinking free and constrains what follows it: guided generation and tool
/// calls start after the thinking ends (`</think>`), so a model that thinks first still
/// answers within its schema.
///
/// At the start the model may open its thinking (the opening marker's first token is allowed
/// beside what the answer allows) unless the prompt already opened it. While it thinks, only the
/// end of generation is ruled out; near the budget's end the closing marker and the answer's
/// own closing are forced, so the output still parses.
public final class ThinkingConstraint: TokenConstraint, @unchecked Sendable {
  private enum State {
    case start
    case opening(remaining: [Token])
    case thinking
    /// The text forced after the closing, before the answer.
    case continuing(remaining: [Token])
    case answering
  }

  private let answer: any TokenConstraint
  private let model: any TokenModel
  private let openingTokens: [Token]
  private let closingTokens: [Token]
  private let closing: [UInt8]
  /// Forced after the closing: the syntax's continuation, then the answer's header where the
  /// answer is constrained.
  private let afterClosing: [Token]
  /// The control tokens of the markers, with their text.
  private let shown: [Token: [UInt8]]
  private let endTokens: [Token]
  private var state: State
  /// The last bytes of the thinking, where the closing marker is looked for.
  private var tail: [UInt8] = []

  /// - Parameters:
  ///   - answer: the constraint of what follows the thinking.
  ///   - syntax: the template's thinking markers.
  ///   - startsInThinking: whether the prompt opened the thinking already.
  ///   - endTokens: the vocabulary's end-of-generation tokens, ruled out while it thinks.
  ///   - forcesAnswerHeader: whether the answer's header (harmony's `<|channel|>final<|message|>`)
  ///     is forced after the thinking: where the answer is constrained and cannot be a call.
  public init(
    answer: any TokenConstraint, syntax: ReasoningSyntax, startsInThinking: Bool, endTokens: [Token],
    model: any TokenModel, forcesAnswerHeader: Bool = false
  ) {
    self.answer = answer
    self.model = model
    openingTokens = model.tokenize(syntax.opening, parseSpecial: true)
    let closingTokens = model.tokenize(syntax.closing, parseSpecial: true)
    self.closingTokens = closingTokens
    closing = Array(syntax.closing.utf8)
    afterClosing =
      (syntax.continuation.isEmpty ? [] : model.tokenize(syntax.continuation, parseSpecial: true))
      + (forcesAnswerHeader && !syntax.answerHeader.isEmpty
        ? model.tokenize(syntax.answerHeader, parseSpecial: true) : [])
    shown = model.controlTokens.shown([syntax.opening, syntax.closing])
    // A closing that is also an end of generation (harmony's `<|end|>`) still closes.
    self.endTokens = endTokens.filter { !closingTokens.contains($0) }
    state = startsInThinking ? .thinking : .start
  }

  /// Whether the answer has begun (the thinking, if any, is over).
  public var isAnswering: Bool { if case .answering = state { true } else { false } }

  public func forcedTokens() -> [Token] {
    switch state {
    case .start, .thinking: []
    case .opening(let remaining), .continuing(let remaining): Array(remaining.prefix(1))
    case .answering: answer.forcedTokens()
    }
  }

  public func mask(_ logits: UnsafeMutableBufferPointer<Float>) {
    switch state {
    case .start:
      // What the answer allows, and the opening of the thinking.
      let opening = openingTokens.first.map { ($0, logits[Int($0)]) }
      answer.mask(logits)
      if let (token, logit) = opening { logits[Int(token)] = logit }
    case .opening(let remaining), .continuing(let remaining):
      for index in logits.indices where Token(index) != remaining.first { logits[index] = -.infinity }
    case .thinking:
      for token in endTokens { logits[Int(token)] = -.infinity }
    case .answering:
      answer.mask(logits)
    }
  }

  public func accept(_ token: Token) throws {
    switch state {
    case .start:
      if token == openingTokens.first {
        let remaining = Array(openingTokens.dropFirst())
        state = remaining.isEmpty ? .thinking : .opening(remaining: remaining)
      } else {
        try answer.accept(token)
        state = .answering
      }
    case .opening(let remaining):
      guard token == remaining.first else {
        throw EngineError(.decodeFailed, "token \(token) does not continue the thinking's opening")
      }
      let rest = Array(remaining.dropFirst())
      state = rest.isEmpty ? .thinking : .opening(remaining: rest)
    case .thinking:
      tail += shown[token] ?? model.piece(of: token)
      if closingTokens.count == 1 && token == closingTokens[0] || tail.ends(with: closing) {
        state = afterClosing.isEmpty ? .answering : .continuing(remaining: afterClosing)
        tail = []
      } else if tail.count > 2 * closing.count {
        tail.removeFirst(tail.count - closing.count)
      }
    case .continuing(let remaining):
      guard token == remaining.first else {
        throw EngineError(.decodeFailed, "token \(token) does not continue what follows the thinking")
      }
      let rest = Array(remaining.dropFirst())
      state = rest.isEmpty ? .answering : .continuing(remaining: rest)
    case .answering:
      try answer.accept(token)
    }
  }

  public var isComplete: Bool { isAnswering && answer.isComplete }

  public var mustEnd: Bool { isAnswering && answer.mustEnd }

  public func tokensToClose() -> [Token] {
    switch state {
    case .start, .answering: answer.tokensToClose()
    case .opening(let remaining): remaining + closingTokens + afterClosing + answer.tokensToClose()
    case .thinking: closingTokens + afterClosing + answer.tokensToClose()
    case .continuing(let remaining): remaining + answer.tokensToClose()
    }
  }

  public var closingTokenBound: Int {
    switch state {
    case .start, .answering: answer.closingTokenBound
    case .opening(let remaining): remaining.count + closingTokens.count + afterClosing.count + answer.closingTokenBound
    case .thinking: closingTokens.count + afterClosing.count + answer.closingTokenBound
    case .continuing(let remaining): remaining.count + answer.closingTokenBound
    }
  }

  public func maskUnclosable(_ logits: UnsafeMutableBufferPointer<Float>, budget: Int) {
    if isAnswering { answer.maskUnclosable(logits, budget: budget) }
  }

  public func allowedTokens(limit: Int) -> [Token]? {
    switch state {
    case .answering: answer.allowedTokens(limit: limit)
    case .opening(let remaining), .continuing(let remaining): Array(remaining.prefix(1))
    case .start, .thinking: nil
    }
  }

  public func snapshot() -> (any Sendable)? { isAnswering ? answer.snapshot() : nil }

  public func restore(_ snapshot: any Sendable) { if isAnswering { answer.restore(snapshot) } }

  public func extensions(of token: Token) -> [Token] { isAnswering ? answer.extensions(of: token) : [] }

  public func acceptExtension(of token: Token, by longer: Token) throws {
    guard isAnswering else { throw EngineError(.invalidRequest, "token \(longer) does not extend token \(token)") }
    try answer.acceptExtension(of: token, by: longer)
  }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
  }
}
