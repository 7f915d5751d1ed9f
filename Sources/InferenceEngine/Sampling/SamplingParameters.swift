/// How the next token is chosen from the model's logits.
public struct SamplingParameters: Sendable, Equatable {
  public enum Strategy: Sendable, Equatable {
    /// Always the most likely token.
    case greedy
    /// A random choice among the `k` most likely tokens.
    case topK(Int)
    /// A random choice among the most likely tokens whose probabilities add up to `p` (nucleus).
    case topP(Double)
  }

  public var strategy: Strategy
  /// Softmax temperature: 1 leaves the distribution as the model gives it, lower sharpens it,
  /// 0 is greedy.
  public var temperature: Double
  /// Seed of the random choice; nil picks a fresh one.
  ///
  /// The same seed and the same state give the same tokens.
  public var seed: UInt64?

  public init(strategy: Strategy, temperature: Double = 1, seed: UInt64? = nil) {
    self.strategy = strategy
    self.temperature = temperature
    self.seed = seed
  }

  public static let greedy = SamplingParameters(strategy: .greedy)
}
