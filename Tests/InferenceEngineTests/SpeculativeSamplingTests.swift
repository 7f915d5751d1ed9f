import Foundation
import Testing

@testable import InferenceEngine

/// Speculative sampling keeps the model's distribution (`Sampler.verify`), and drafts are as
/// long as the match promises and pause where they do not pay (`DraftPolicy`).
@Suite struct SpeculativeSamplingTests {
  /// Logits of five tokens; the last is never among the top three.
  static let logits: [Float] = [2.0, 1.0, 0.5, 0.2, -1.0]

  /// The probabilities top-k 3 sampling gives each token at temperature 1.
  static var topThree: [Double] {
    let weights = logits.prefix(3).map { exp(Double($0)) }
    let total = weights.reduce(0, +)
    return weights.map { $0 / total } + [0, 0]
  }

  /// How often each token is taken in `draws` verifications of `draft`.
  static func frequencies(verifying draft: Token, draws: Int) -> [Double] {
    var sampler = Sampler(SamplingParameters(strategy: .topK(3), seed: 42))
    var counts = [Int](repeating: 0, count: logits.count)
    logits.withUnsafeBufferPointer { buffer in
      for _ in 0..<draws { counts[Int(sampler.verify(draft, logits: buffer))] += 1 }
    }
    return counts.map { Double($0) / Double(draws) }
  }

  /// Whatever the draft (likely, unlikely, or one sampling never takes), the token verification
  /// returns has the sampler's own distribution.
  @Test(arguments: [Token(0), 2, 4])
  func verificationKeepsTheDistribution(draft: Token) {
    let observed = Self.frequencies(verifying: draft, draws: 40_000)
    for (token, expected) in Self.topThree.enumerated() {
      #expect(abs(observed[token] - expected) < 0.01, "token \(token): \(observed[token]) against \(expected)")
    }
  }

  /// Greedy verification is the model's own choice.
  @Test func greedyVerificationTakesTheMostLikelyToken() {
    var sampler = Sampler(.greedy)
    Self.logits.withUnsafeBufferPointer { buffer in
      #expect(sampler.verify(0, logits: buffer) == 0)
      #expect(sampler.verify(3, logits: buffer) == 0)
    }
  }

  /// Without a constraint a long match drafts a long draft and a shorter one a few tokens; with
  /// one, shorter matches draft a few tokens. A draft mostly refused makes the next ones probes
  /// until one is confirmed whole.
  @Test func theMatchSetsTheDraftAndRefusalsShortenIt() {
    var free = DraftPolicy(constrained: false)
    #expect(free.length(after: 0, match: DraftPolicy.shortMatch - 1) == 0)
    #expect(free.length(after: 0, match: DraftPolicy.shortMatch) == DraftPolicy.shortLength)
    #expect(free.length(after: 0, match: DraftPolicy.copyMatch - 1) == DraftPolicy.shortLength)
    #expect(free.length(after: 0, match: DraftPolicy.copyMatch) == DraftPolicy.copyLength)
    let guided = DraftPolicy(constrained: true)
    #expect(guided.length(after: 0, match: 1) == 0)
    #expect(guided.length(after: 0, match: DraftPolicy.guidedMatch) == DraftPolicy.guidedLength)
    #expect(guided.length(after: 0, match: DraftPolicy.copyMatch) == DraftPolicy.copyLength)
    // A continuation every occurrence of the match agrees on is drafted whole under a
    // constraint, however short the match; never without one.
    #expect(guided.agreedLength(after: 0, agreed: 5) == 5)
    #expect(guided.agreedLength(after: 0, agreed: 40) == DraftPolicy.agreedLength)
    #expect(free.agreedLength(after: 0, agreed: 5) == 0)

    free.record(drafted: DraftPolicy.copyLength, confirmed: 1, generated: 2)
    #expect(free.length(after: 3, match: 16) == DraftPolicy.probeLength)
    free.record(drafted: DraftPolicy.probeLength, confirmed: DraftPolicy.probeLength, generated: 6)
    #expect(free.length(after: 7, match: 16) == DraftPolicy.copyLength)
  }

  /// Short drafts (after a match of 4 to 7 tokens, without a constraint) go on while most of
  /// them are confirmed; where fewer are, they pause, for longer each time, and neither the long
  /// copies' drafts nor a constrained generation's drafts change.
  @Test func shortDraftsGoOnOnlyWhileMostlyConfirmed() throws {
    var policy = DraftPolicy(constrained: false)
    let short = DraftPolicy.shortMatch
    var generated = 0
    for _ in 0..<8 {
      #expect(policy.length(after: generated, match: short) == DraftPolicy.shortLength)
      policy.record(drafted: 3, confirmed: 3, generated: generated, short: true)
      generated += 4
    }
    // Two of three confirmed is under the share: a pause, with long copies unchanged.
    var pauses: [Int] = []
    for _ in 0..<2 {
      for _ in 0..<(DraftPolicy.shortEvidence / 3) {
        policy.record(drafted: 3, confirmed: 2, generated: generated, short: true)
      }
      #expect(policy.length(after: generated, match: short) == 0)
      #expect(policy.length(after: generated, match: DraftPolicy.copyMatch) == DraftPolicy.copyLength)
      let resumes = try #require(
        (generated...generated + 4 * DraftPolicy.longestPause).first { policy.length(after: $0, match: short) > 0 })
      pauses.append(resumes - generated)
      generated = resumes
    }
    #expect(pauses == [DraftPolicy.firstShortPause, 2 * DraftPolicy.firstShortPause])
    #expect(!DraftPolicy(constrained: true).isShort(match: short))
    #expect(DraftPolicy(constrained: true).length(after: 0, match: short) == DraftPolicy.guidedLength)
  }

  /// Where too little of what is drafted is confirmed, drafting pauses, for longer each time.
  @Test func refusedDraftsPauseDraftingForLongerEachTime() {
    var policy = DraftPolicy(constrained: false)
    var generated = 0
    var pauses: [Int] = []
    while generated < 2_000 {
      let length = policy.length(after: generated, match: 16)
      if length > 0 {
        policy.record(drafted: length, confirmed: 0, generated: generated)
        if policy.length(after: generated, match: 16) == 0 { pauses.append(generated) }
      }
      generated += 1
    }
    #expect(pauses.count >= 3)
    let gaps = zip(pauses.dropFirst(), pauses).map { $0 - $1 }
    #expect(gaps == gaps.sorted() && gaps.first! < gaps.last!, "pauses grow: \(gaps)")
  }
}
