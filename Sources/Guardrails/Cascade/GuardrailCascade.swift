/// The content check: normalisation and high-precision patterns, then the classifier, then —
/// for texts in the classifier's uncertain band only — a judge model.
///
/// Stages 1 and 2 need no model, so they cost little next to generation (`fm-bench guardrails`;
/// figures in `bench/README.md`, Guardrails); the judge costs one short constrained generation.
public struct GuardrailCascade: Sendable {
  public let classifier: ContentClassifier

  public init(classifier: ContentClassifier) {
    self.classifier = classifier
  }

  /// The cascade over the shipped classifier.
  /// - Throws: ``ClassifierWeights/FormatError`` when the resource is missing or damaged.
  public static func shipped() throws -> GuardrailCascade {
    GuardrailCascade(classifier: try ContentClassifier.shipped.get())
  }

  /// Stage 2's probabilities for `text` as the input check reads them (the request head gated
  /// by ``RequestShape``), or nil when a pattern decides it.
  public func classifierProbabilities(of text: String) -> [Float]? {
    if case .classifier(let probabilities) = scored(text) { probabilities } else { nil }
  }

  /// The words the classifier reads for `text`: normalised, with benign idioms neutralised.
  public static func classifierWords(_ text: String) -> [String] {
    let normalized = TextNormalizer.normalize(text)
    let neutral = PatternRules.neutralizingIdioms(in: normalized)
    return neutral.split(separator: " ").map(String.init)
  }

  /// Stage 1 alone: the category of a block pattern in `text`, if any.
  ///
  /// Cheap enough to run on every snapshot of a streamed answer.
  public static func blockedByPattern(_ text: some StringProtocol) -> GuardrailCategory? {
    PatternRules.blockedCategory(in: TextNormalizer.normalize(String(text)))
  }

  /// Stages 1 and 2: patterns, then the classifier's thresholds.
  /// - Parameter readsRequests: whether the request head counts (``ClassifierWeights/requestHead``).
  ///   It learnt requests (prompts), so it counts for what a user or tool sends, not for what a
  ///   model generates.
  public func assess(_ text: String, readsRequests: Bool = true) -> GuardrailAssessment {
    switch scored(text, readsRequests: readsRequests) {
    case .pattern(let verdict): .decided(verdict)
    case .classifier(let probabilities): assess(probabilities: probabilities, readsRequests: readsRequests)
    }
  }

  /// What stage 1 found, or stage 2's probabilities when no pattern decided.
  enum Scoring {
    case pattern(GuardrailVerdict)
    case classifier([Float])
  }

  /// Stage 1 on `text`, then, when no pattern blocks it, the classifier's probabilities for its
  /// normalised words with benign idioms neutralised; when `readsRequests`, the request head's
  /// is 0 for a text that is not shaped like a request (``RequestShape``).
  func scored(_ text: String, readsRequests: Bool = true) -> Scoring {
    let normalized = TextNormalizer.normalize(text)
    if let category = PatternRules.blockedCategory(in: normalized) {
      return .pattern(GuardrailVerdict(violation: category, stage: .pattern, probability: 1, mostLikely: category))
    }
    let neutral = PatternRules.neutralizingIdioms(in: normalized)
    var probabilities = classifier.probabilities(words: neutral.split(separator: " ").map(String.init))
    if readsRequests { RequestShape.gate(&probabilities, text: text) }
    return .classifier(probabilities)
  }

  /// Stage 2's decision for the classifier's `probabilities` (the category heads in
  /// ``GuardrailCategory/scored`` order, then the request head): blocked at or above a head's
  /// upper threshold, uncertain between its lower and upper ones (decided by its decision
  /// threshold when there is no judge), else allowed.
  ///
  /// A text the request head flags is reported under the category most likely by the category
  /// heads; the request head counts only when `readsRequests`.
  public func assess(probabilities: [Float], readsRequests: Bool = true) -> GuardrailAssessment {
    let heads = classifier.weights.heads
    let categories = GuardrailCategory.scored
    // The category furthest into (or nearest to) its band, measured in band widths.
    func margin(_ index: Int) -> Float {
      let head = heads[index]
      return (probabilities[index] - head.lower) / max(head.upper - head.lower, 1e-6)
    }
    let order = categories.indices.sorted { margin($0) > margin($1) }
    guard let top = order.first else {
      return .decided(GuardrailVerdict(violation: nil, stage: .classifier, probability: 0, mostLikely: .selfHarm))
    }
    let category = categories[top]
    let probability = probabilities[top]
    func verdict(_ violation: GuardrailCategory?) -> GuardrailVerdict {
      GuardrailVerdict(violation: violation, stage: .classifier, probability: probability, mostLikely: category)
    }
    let requestIndex = ClassifierWeights.requestHead
    let request =
      readsRequests && heads.indices.contains(requestIndex) ? (heads[requestIndex], probabilities[requestIndex]) : nil
    if let blocked = order.first(where: { probabilities[$0] >= heads[$0].upper }) {
      return .decided(
        GuardrailVerdict(
          violation: categories[blocked], stage: .classifier, probability: probabilities[blocked],
          mostLikely: categories[blocked]))
    }
    if let (head, value) = request, value >= head.upper { return .decided(verdict(category)) }
    let requestInBand = request.map { $0.1 >= $0.0.lower } ?? false
    guard probability >= heads[top].lower || requestInBand else { return .decided(verdict(nil)) }
    let requestDecides = request.map { $0.1 >= $0.0.decision } ?? false
    let fallback =
      order.first { probabilities[$0] >= heads[$0].decision }.map { categories[$0] }
      ?? (requestDecides ? category : nil)
    return .uncertain(category: category, fallback: verdict(fallback))
  }

  /// All three stages: the judge, when given, settles a text in the uncertain band; when it
  /// fails (or there is none), the classifier's decision threshold does.
  public func check(_ text: String, judge: (any GuardrailJudge)?) async -> GuardrailVerdict {
    let assessment = assess(text)
    guard case .uncertain(let category, let fallback) = assessment, let judge else {
      return assessment.verdictWithoutJudge
    }
    do {
      let violation = try await judge.violation(in: text, mostLikely: category)
      return GuardrailVerdict(
        violation: violation, stage: .judge, probability: fallback.probability, mostLikely: category)
    } catch {
      return fallback
    }
  }
}
