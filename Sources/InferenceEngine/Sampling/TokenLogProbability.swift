import Foundation

/// A token's log probability under the model, with the most likely tokens at its position: what
/// a request with `GenerationRequest.logProbabilities` reports for each token.
///
/// A log probability is the log-softmax of the model's logits at the position, at temperature 1
/// and before the request's sampling narrows the choice (temperature, top-p, top-k): the
/// model's own distribution, the same however the request samples, as OpenAI's `logprobs`
/// report it.
public struct TokenLogProbability: Sendable, Equatable {
  /// A likely token at the position and its log probability.
  public struct Alternative: Sendable, Equatable {
    public var token: Token
    public var logProbability: Float

    public init(token: Token, logProbability: Float) {
      self.token = token
      self.logProbability = logProbability
    }
  }

  public var token: Token
  /// Nil for the prompt's first token, which no logits precede.
  public var logProbability: Float?
  /// The most likely tokens at the position, most likely first.
  public var alternatives: [Alternative]

  public init(token: Token, logProbability: Float?, alternatives: [Alternative] = []) {
    self.token = token
    self.logProbability = logProbability
    self.alternatives = alternatives
  }

  /// `token`'s log probability after `logits`, with the `alternatives` most likely tokens.
  init(token: Token, logits: UnsafeBufferPointer<Float>, alternatives count: Int) {
    let normalizer = Self.logSumExp(logits)
    self.token = token
    logProbability = Float(Double(logits[Int(token)]) - normalizer)
    alternatives =
      count > 0
      ? Sampler.topK(logits, k: count).map {
        Alternative(token: $0.0, logProbability: Float(Double($0.1) - normalizer))
      }
      : []
  }

  /// The log of the sum of the exponentials of `logits`, computed without overflow.
  static func logSumExp(_ logits: UnsafeBufferPointer<Float>) -> Double {
    let maximum = Double(logits.max() ?? 0)
    guard maximum.isFinite else { return maximum }
    var sum = 0.0
    for logit in logits { sum += exp(Double(logit) - maximum) }
    return maximum + log(sum)
  }
}
