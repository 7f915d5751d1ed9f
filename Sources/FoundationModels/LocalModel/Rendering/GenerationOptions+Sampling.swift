import InferenceEngine

extension GenerationOptions {
  /// The temperature used when `temperature` is nil ("the system chooses"): a moderate value
  /// that keeps small models coherent.
  static let defaultTemperature = 0.7
  /// The nucleus threshold used when `sampling` is nil; package-wide for `fm serve`, which
  /// samples with it when a request gives a seed and no top-p or top-k.
  package static let defaultProbabilityThreshold = 0.9

  /// The engine's sampling for these options; package-wide for `fm serve`'s text completions,
  /// which make their engine requests themselves.
  ///
  /// - `sampling` nil: nucleus sampling with threshold 0.9 (the system default).
  /// - `.greedy`: the most likely token; `temperature` is ignored.
  /// - `.random(top:seed:)` / `.random(probabilityThreshold:seed:)`: top-k / top-p with the seed.
  /// - `temperature` 0…1 is the softmax temperature (1 leaves the model's distribution as is,
  ///   lower values sharpen it, 0 is greedy); nil means 0.7. Values outside 0…1 are clamped,
  ///   since Apple documents the range as a requirement without saying what happens outside it.
  package var samplingParameters: SamplingParameters {
    let temperature = min(max(temperature ?? Self.defaultTemperature, 0), 1)
    switch samplingMode?.kind {
    case .greedy:
      return .greedy
    case .randomTopK(let k, let seed):
      return SamplingParameters(strategy: .topK(k), temperature: temperature, seed: seed)
    case .randomProbabilityThreshold(let threshold, let seed):
      return SamplingParameters(strategy: .topP(min(max(threshold, 0), 1)), temperature: temperature, seed: seed)
    case nil:
      return SamplingParameters(strategy: .topP(Self.defaultProbabilityThreshold), temperature: temperature)
    }
  }
}
