import Foundation

/// Chooses tokens from logits with one request's `SamplingParameters`.
///
/// Tokens whose logit is `-infinity` (masked by a constraint) are never chosen.
struct Sampler {
  /// Tokens less likely than this fraction of the most likely one are left out of random
  /// choices.
  ///
  /// Their total mass is below 151,936 × 1e-9 ≈ 0.0002 even on Qwen's vocabulary, and skipping them
  /// avoids sorting the whole vocabulary for every token.
  private static let negligibleLogGap = -log(1e-9)

  let parameters: SamplingParameters
  private var random: SeededRandom

  init(_ parameters: SamplingParameters) {
    self.parameters = parameters
    random = SeededRandom(seed: parameters.seed ?? UInt64.random(in: .min ... .max))
  }

  mutating func sample(_ logits: UnsafeBufferPointer<Float>) -> Token {
    guard let candidates = candidates(logits) else { return Self.argmax(logits) }
    return choose(from: candidates)
  }

  /// The tokens a random choice is made among, best first, as (token, logit); nil when the
  /// choice is greedy.
  private func candidates(_ logits: UnsafeBufferPointer<Float>) -> [(Token, Float)]? {
    switch parameters.strategy {
    case .greedy:
      return nil
    case _ where parameters.temperature <= 0:
      return nil
    case .topK(let k):
      return Self.topK(logits, k: max(1, k))
    case .topP(let p):
      return nucleus(logits, p: p)
    }
  }

  /// Speculative sampling's verification of a guessed token (a draft from prompt lookup, which
  /// proposes one token with certainty): `draft` is kept with its probability under this
  /// sampler's distribution at `logits`; otherwise a token is drawn from that distribution
  /// without it, renormalised. The token returned is thus distributed exactly as `sample`'s
  /// (standard rejection sampling), whatever the draft.
  mutating func verify(_ draft: Token, logits: UnsafeBufferPointer<Float>) -> Token {
    guard let candidates = candidates(logits) else { return Self.argmax(logits) }
    let weights = softmax(candidates)
    guard let index = candidates.firstIndex(where: { $0.0 == draft }) else { return choose(from: candidates) }
    if random.nextUnit() < weights[index] || candidates.count == 1 { return draft }
    var rest = candidates
    rest.remove(at: index)
    return choose(from: rest)
  }

  static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Token {
    var best = 0
    var bestValue = -Float.infinity
    for index in logits.indices where logits[index] > bestValue {
      bestValue = logits[index]
      best = index
    }
    return Token(best)
  }

  /// The `k` highest logits, best first, as (token, logit).
  static func topK(_ logits: UnsafeBufferPointer<Float>, k: Int) -> [(Token, Float)] {
    var kept: [(Token, Float)] = []
    kept.reserveCapacity(k + 1)
    var floor = -Float.infinity
    for index in logits.indices {
      let value = logits[index]
      guard value > floor || (kept.count < k && value > -Float.infinity) else { continue }
      // Insertion into a short sorted array: k is small in practice (tens).
      let position = kept.firstIndex { $0.1 < value } ?? kept.count
      kept.insert((Token(index), value), at: position)
      if kept.count > k { kept.removeLast() }
      if kept.count == k { floor = kept[k - 1].1 }
    }
    return kept
  }

  /// The smallest set of most likely tokens whose probability reaches `p`, best first.
  private func nucleus(_ logits: UnsafeBufferPointer<Float>, p: Double) -> [(Token, Float)] {
    let maximum = logits.max() ?? 0
    let cutoff = maximum - Float(Self.negligibleLogGap * max(parameters.temperature, 1e-3))
    var candidates: [(Token, Float)] = []
    for index in logits.indices where logits[index] >= cutoff {
      candidates.append((Token(index), logits[index]))
    }
    candidates.sort { $0.1 > $1.1 }
    let weights = softmax(candidates)
    var cumulative = 0.0
    var count = 0
    for weight in weights {
      cumulative += weight
      count += 1
      if cumulative >= p { break }
    }
    return Array(candidates.prefix(max(count, 1)))
  }

  /// Temperature-scaled probabilities of candidates (sorted best first).
  private func softmax(_ candidates: [(Token, Float)]) -> [Double] {
    guard let top = candidates.first?.1 else { return [] }
    let temperature = max(parameters.temperature, 1e-3)
    let weights = candidates.map { exp(Double($0.1 - top) / temperature) }
    let total = weights.reduce(0, +)
    return weights.map { $0 / total }
  }

  private mutating func choose(from candidates: [(Token, Float)]) -> Token {
    let weights = softmax(candidates)
    var target = random.nextUnit()
    for (candidate, weight) in zip(candidates, weights) {
      target -= weight
      if target < 0 { return candidate.0 }
    }
    return candidates.last?.0 ?? 0
  }
}
