extension GuardrailCascade {
  /// Stages 1 to 3 with the embedding probe as the third (``EmbeddingProbe``): patterns; the
  /// classifier's upper thresholds, then its category heads' decision thresholds; then, for a
  /// request whose request-head probability is in the probe's band, the probe.
  ///
  /// When `embed` fails, the classifier decides as without a judge.
  /// - Parameter embed: the text's embedding on the probe's model.
  public func check(_ text: String, probe: EmbeddingProbe, embed: (String) async throws -> [Float]) async
    -> GuardrailVerdict
  {
    let probabilities: [Float]
    switch scored(text) {
    case .pattern(let verdict): return verdict
    case .classifier(let scores): probabilities = scores
    }
    let assessment = assess(probabilities: probabilities)
    switch decision(probabilities: probabilities, probe: probe, assessment: assessment) {
    case .decided(let verdict): return verdict
    case .probe(let request, let mostLikely):
      do {
        let unsafe = probe.isUnsafe(embedding: try await embed(text), requestProbability: request)
        return GuardrailVerdict(
          violation: unsafe ? mostLikely : nil, stage: .probe, probability: request, mostLikely: mostLikely)
      } catch {
        return assessment.verdictWithoutJudge
      }
    }
  }

  /// What the classifier leaves to the probe.
  public enum ProbeDecision: Sendable, Equatable {
    case decided(GuardrailVerdict)
    /// The request head's probability is in the probe's band; a violation is reported under
    /// `mostLikely`.
    case probe(requestProbability: Float, mostLikely: GuardrailCategory)
  }

  /// Stage 2's part when the probe is the third stage, for the classifier's `probabilities` and
  /// their `assessment` (``assess(probabilities:readsRequests:)``).
  public func decision(probabilities: [Float], probe: EmbeddingProbe, assessment: GuardrailAssessment)
    -> ProbeDecision
  {
    if case .decided(let verdict) = assessment, verdict.isViolation { return .decided(verdict) }
    let heads = classifier.weights.heads
    let categories = GuardrailCategory.scored
    if let flagged = categories.indices.first(where: { probabilities[$0] >= heads[$0].decision }) {
      let category = categories[flagged]
      return .decided(
        GuardrailVerdict(
          violation: category, stage: .classifier, probability: probabilities[flagged], mostLikely: category))
    }
    let mostLikely = assessment.verdictWithoutJudge.mostLikely
    let request = probabilities[ClassifierWeights.requestHead]
    guard request >= probe.bandLower else {
      return .decided(
        GuardrailVerdict(
          violation: nil, stage: .classifier, probability: assessment.verdictWithoutJudge.probability,
          mostLikely: mostLikely))
    }
    return .probe(requestProbability: request, mostLikely: mostLikely)
  }
}
