/// Restricts which tokens may come next: the hook for guided generation (schemas, tool calls).
///
/// The generator asks for forced tokens first (text the constraint fixes, emitted without
/// sampling: jump-forward), otherwise masks the logits and samples. A constraint is used by one
/// request on one thread; it is `Sendable` only so it can travel to the engine's work queue.
public protocol TokenConstraint: AnyObject, Sendable {
  /// Tokens that must come next, or empty when the model chooses.
  func forcedTokens() -> [Token]
  /// Sets the logits of disallowed tokens to `-infinity`.
  ///
  /// End-of-generation tokens count as allowed only when `isComplete`.
  func mask(_ logits: UnsafeMutableBufferPointer<Float>)
  /// Advances the constraint past a token the generator chose or forced.
  /// - Throws: when the token is not allowed (a bug in `mask`, or a forced token mismatch).
  func accept(_ token: Token) throws
  /// Whether the output so far is complete, so generation may (and should) end here.
  var isComplete: Bool { get }
  /// Whether no further token is possible, so generation must end here.
  var mustEnd: Bool { get }
  /// Tokens needed to close the output from the current state: the generator stops sampling
  /// freely when only this many tokens of budget are left.
  func tokensToClose() -> [Token]
  /// Sets to `-infinity`, besides what `mask` masks, the logits of tokens after which the output
  /// could not be closed within `budget` tokens (the chosen one included): those that open
  /// something long where the output could end now, such as a tool call near the budget's end.
  func maskUnclosable(_ logits: UnsafeMutableBufferPointer<Float>, budget: Int)
  /// At least `tokensToClose().count`, and cheap enough to ask on every token: the generator
  /// tokenizes the closing text only when this bound comes near the budget.
  var closingTokenBound: Int { get }
  /// The tokens allowed next (end-of-generation tokens included when complete), and any others
  /// whose logits `mask` weighs, when there are at most `limit` of them, else nil.
  ///
  /// The generator then asks the backend for only these logits, which llama.cpp computes without
  /// its output layer.
  func allowedTokens(limit: Int) -> [Token]?
  /// Where the constraint stands, for `restore(_:)`: the generator accepts draft tokens to check
  /// them and returns here before taking the ones the model confirms.
  ///
  /// Nil when unsupported.
  func snapshot() -> (any Sendable)?
  /// Returns to a `snapshot()` of this constraint.
  func restore(_ snapshot: any Sendable)
  /// Tokens longer than `token`, the last token accepted (a forced one), that begin with its
  /// text and continue validly from here.
  ///
  /// The generator lets the model choose among `token` and these at the position of `token`, so
  /// forced text ends where the model's own tokenization would end it (Qwen writes `":[{"` as one
  /// token, not `":[` and then `{"`).
  func extensions(of token: Token) -> [Token]
  /// Continues as if `longer`, one of `extensions(of: token)`, had been accepted instead of
  /// `token`, the last token accepted.
  /// - Throws: when `longer` is not such an extension.
  func acceptExtension(of token: Token, by longer: Token) throws
}

extension TokenConstraint {
  /// The exact count.
  public var closingTokenBound: Int { tokensToClose().count }

  /// Unknown: every logit is computed.
  public func allowedTokens(limit: Int) -> [Token]? { nil }

  /// Nothing more: what `mask` allows can always be closed within `tokensToClose`.
  public func maskUnclosable(_ logits: UnsafeMutableBufferPointer<Float>, budget: Int) {}

  /// No snapshots: no draft tokens are tried.
  public func snapshot() -> (any Sendable)? { nil }

  public func restore(_ snapshot: any Sendable) {}

  /// No extensions: forced tokens stand as they are.
  public func extensions(of token: Token) -> [Token] { [] }

  public func acceptExtension(of token: Token, by longer: Token) throws {
    throw EngineError(.invalidRequest, "token \(longer) does not extend token \(token)")
  }
}
