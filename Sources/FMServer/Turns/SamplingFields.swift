import FoundationModels

/// The sampling parameters the APIs share, as generation options: `temperature` 0…1 (0 is
/// greedy), `top_p` or `top_k` (not both), `seed`, and a positive token maximum.
enum SamplingFields {
  /// Reads `temperature`, `top_p`, and `top_k` and `seed` where the API has them (where it does
  /// not, they stay unread and the request's unknown-member check refuses them).
  static func options(_ fields: inout JSONFields, topK hasTopK: Bool = true, seed hasSeed: Bool = true) throws
    -> GenerationOptions
  {
    let temperature = try fields.number("temperature")
    if let temperature, !(0...1).contains(temperature) {
      throw APIError.invalid(
        "'temperature' must be from 0 to 1 on this server (the sampler's range), not \(temperature)",
        param: "temperature")
    }
    let topP = try fields.number("top_p")
    if let topP, !(topP > 0 && topP <= 1) {
      throw APIError.invalid("'top_p' must be greater than 0 and at most 1", param: "top_p")
    }
    let topK = hasTopK ? try fields.integer("top_k") : nil
    if let topK, topK < 1 { throw APIError.invalid("'top_k' must be a positive integer", param: "top_k") }
    if topP != nil, topK != nil {
      throw APIError.unsupported("top_k", "the sampler takes top_p or top_k, not both")
    }
    let seed = hasSeed ? try fields.integer("seed").map { UInt64(bitPattern: Int64($0)) } : nil
    let mode: GenerationOptions.SamplingMode? =
      if temperature == 0 || topK == 1 {
        .greedy
      } else if let topK {
        .random(top: topK, seed: seed)
      } else if let topP {
        .random(probabilityThreshold: topP, seed: seed)
      } else if let seed {
        .random(probabilityThreshold: GenerationOptions.defaultProbabilityThreshold, seed: seed)
      } else {
        nil
      }
    return GenerationOptions(samplingMode: mode, temperature: temperature)
  }

  /// The member `key`, a positive integer.
  static func maximumTokens(_ fields: inout JSONFields, _ key: String) throws -> Int? {
    guard let maximum = try fields.integer(key) else { return nil }
    guard maximum >= 1 else { throw APIError.invalid("'\(key)' must be a positive integer", param: key) }
    return maximum
  }
}
