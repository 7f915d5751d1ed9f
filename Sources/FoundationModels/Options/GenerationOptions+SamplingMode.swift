extension GenerationOptions {
  /// How the model picks each token from its probability distribution.
  ///
  /// Matches FoundationModels `GenerationOptions.SamplingMode`; ``kind`` (27) reads its
  /// parameters back, so an executor can map them onto its sampler or API.
  public struct SamplingMode: Sendable, Equatable {
    /// The parameters of a sampling mode.
    ///
    /// Matches FoundationModels 27 `GenerationOptions.SamplingMode.Kind`, with the case names
    /// of Apple's later betas (`randomTopK`, `randomProbabilityThreshold`, as provider packages
    /// written against them use; an earlier interface named them `top(k:seed:)` and
    /// `nucleus(threshold:seed:)`). The first value's label is not visible in the code that
    /// uses them, so it has none here.
    @nonexhaustive
    public enum Kind: Sendable, Equatable {
      /// Always the most likely token.
      case greedy
      /// Sample among the `k` most likely tokens.
      case randomTopK(Int, seed: UInt64?)
      /// Sample among the most likely tokens whose probabilities add up to the threshold (0...1).
      case randomProbabilityThreshold(Double, seed: UInt64?)
    }

    /// The mode's parameters.
    ///
    /// Matches FoundationModels 27 `GenerationOptions.SamplingMode.kind`.
    public let kind: Kind

    init(kind: Kind) {
      self.kind = kind
    }

    /// Always chooses the most likely token, so a given input always produces the same output.
    ///
    /// Matches FoundationModels `GenerationOptions.SamplingMode.greedy`.
    public static var greedy: SamplingMode {
      SamplingMode(kind: .greedy)
    }

    /// Samples among the `k` most likely tokens (top-k sampling).
    ///
    /// Matches FoundationModels `GenerationOptions.SamplingMode.random(top:seed:)`.
    /// - Parameters:
    ///   - k: How many of the most likely tokens to consider; should be positive.
    ///   - seed: A seed for the random generator; reproducibility is best-effort.
    public static func random(top k: Int, seed: UInt64? = nil) -> SamplingMode {
      SamplingMode(kind: .randomTopK(k, seed: seed))
    }

    /// Samples among the most likely tokens whose probabilities add up to the threshold
    /// (nucleus or top-p sampling).
    ///
    /// Matches FoundationModels `GenerationOptions.SamplingMode.random(probabilityThreshold:seed:)`.
    /// - Parameters:
    ///   - probabilityThreshold: The cumulative probability, between 0 and 1.
    ///   - seed: A seed for the random generator; reproducibility is best-effort.
    public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
      SamplingMode(kind: .randomProbabilityThreshold(probabilityThreshold, seed: seed))
    }
  }
}
