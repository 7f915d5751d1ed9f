/// Feedback on a response, attached to a report with the session's `logFeedbackAttachment`.
///
/// Matches FoundationModels `LanguageModelFeedback`. Apple does not say whether it is a struct
/// or an enum namespace; it is only used through its nested types, which both support.
public struct LanguageModelFeedback: Sendable {
  /// How the response was received.
  ///
  /// Matches FoundationModels `LanguageModelFeedback.Sentiment`.
  public enum Sentiment: String, Sendable, CaseIterable, Hashable {
    case positive
    case negative
    case neutral
  }

  /// A problem with a response.
  ///
  /// Matches FoundationModels `LanguageModelFeedback.Issue`.
  public struct Issue: Sendable, Hashable {
    /// The kind of problem.
    public var category: Category
    /// More detail, in your words or the user's.
    public var explanation: String?

    /// Creates an issue.
    ///
    /// Matches FoundationModels `LanguageModelFeedback.Issue.init(category:explanation:)`.
    public init(category: Category, explanation: String? = nil) {
      self.category = category
      self.explanation = explanation
    }

    /// Kinds of problems with a response.
    ///
    /// Matches FoundationModels `LanguageModelFeedback.Issue.Category`.
    public enum Category: String, Sendable, CaseIterable, Hashable {
      case didNotFollowInstructions
      case incorrect
      case stereotypeOrBias
      case suggestiveOrSexual
      case tooVerbose
      case triggeredGuardrailUnexpectedly
      case unhelpful
      case vulgarOrOffensive
    }
  }
}
