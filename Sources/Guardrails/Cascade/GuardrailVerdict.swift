/// What a check found.
public struct GuardrailVerdict: Sendable, Equatable {
  /// The stage that decided.
  public enum Stage: String, Sendable {
    /// A high-precision pattern (or nothing scored near a threshold).
    case pattern
    /// The classifier, with a probability outside its uncertain band (or with no judge to ask).
    case classifier
    /// The judge model, asked about a text in the classifier's uncertain band.
    case judge
    /// The embedding probe (``EmbeddingProbe``), reading a request in its band.
    case probe
  }

  /// The category of the violation, or nil when the text is allowed.
  public var violation: GuardrailCategory?
  public var stage: Stage
  /// The classifier's highest probability for the category it found most likely.
  public var probability: Float
  /// The category that probability belongs to.
  public var mostLikely: GuardrailCategory

  public var isViolation: Bool { violation != nil }
}

/// What the first two stages found: a decision, or a category to ask the judge about.
public enum GuardrailAssessment: Sendable, Equatable {
  case decided(GuardrailVerdict)
  /// The classifier's probability for `category` is in its uncertain band; `fallback` is the
  /// verdict when no judge can be asked.
  case uncertain(category: GuardrailCategory, fallback: GuardrailVerdict)

  /// The verdict without a judge.
  public var verdictWithoutJudge: GuardrailVerdict {
    switch self {
    case .decided(let verdict): verdict
    case .uncertain(_, let fallback): fallback
    }
  }
}
