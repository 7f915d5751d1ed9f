extension GenerationOptions {
  /// How the model picks each token from its probability distribution.
  ///
  /// Matches FoundationModels `GenerationOptions.SamplingMode`. Apple keeps the parameters
  /// private; the session reads them through the internal ``kind``.
  public struct SamplingMode: Sendable, Equatable {
    /// The parameters of a sampling mode, for the session to map onto its sampler.
    enum Kind: Sendable, Equatable {
      /// Always the most likely token.
      case greedy
      /// Sample among the `k` most likely tokens.
      case topK(Int, seed: UInt64?)
      /// Sample among the most likely tokens whose probabilities add up to `threshold` (0...1).
      case topP(Double, seed: UInt64?)
    }

    /// The mode's parameters.
    let kind: Kind

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
      SamplingMode(kind: .topK(k, seed: seed))
    }

    /// Samples among the most likely tokens whose probabilities add up to the threshold
    /// (nucleus or top-p sampling).
    ///
    /// Matches FoundationModels `GenerationOptions.SamplingMode.random(probabilityThreshold:seed:)`.
    /// - Parameters:
    ///   - probabilityThreshold: The cumulative probability, between 0 and 1.
    ///   - seed: A seed for the random generator; reproducibility is best-effort.
    public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
      SamplingMode(kind: .topP(probabilityThreshold, seed: seed))
    }
  }
}
