/// Feedback on a response, attached to a report with the session's `logFeedbackAttachment`.
///
/// Matches FoundationModels `LanguageModelFeedback`. Apple does not say whether it is a struct
/// or an enum namespace; it is only used through its nested types, which both support.
public struct LanguageModelFeedback: Sendable {
  /// How the response was received.
  ///
  /// Matches FoundationModels `LanguageModelFeedback.Sentiment`.
  @nonexhaustive
  public enum Sentiment: String, Sendable, CaseIterable, Hashable {
    /// The response was good.
    case positive
    /// The response was bad.
    case negative
    /// The response was neither good nor bad.
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
    @nonexhaustive
    public enum Category: String, Sendable, CaseIterable, Hashable {
      /// The response did not follow the instructions.
      case didNotFollowInstructions
      /// The response was factually wrong.
      case incorrect
      /// The response showed a stereotype or bias.
      case stereotypeOrBias
      /// The response was suggestive or sexual.
      case suggestiveOrSexual
      /// The response was longer than it should be.
      case tooVerbose
      /// A guardrail blocked a harmless request.
      case triggeredGuardrailUnexpectedly
      /// The response did not help.
      case unhelpful
      /// The response was vulgar or offensive.
      case vulgarOrOffensive
    }
  }
}
