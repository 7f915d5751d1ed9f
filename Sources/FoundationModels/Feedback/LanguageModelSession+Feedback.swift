import Foundation

extension LanguageModelSession {
  /// Matches FoundationModels `logFeedbackAttachment(sentiment:issues:desiredOutput:)`: a
  /// feedback record for this session as JSON.
  ///
  /// Apple's attachment goes to Feedback Assistant and its format is not documented. Ours is a
  /// self-contained JSON object — `sentiment`, `issues` (category and explanation), the desired
  /// output if given, and the session's `transcript` in its Codable form — for bug reports.
  @discardableResult
  public func logFeedbackAttachment(
    sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
    desiredOutput: Transcript.Entry? = nil
  ) -> Data {
    feedbackAttachment(
      sentiment: sentiment, issues: issues,
      desired: desiredOutput.map { Transcript(entries: [$0]) }.flatMap { try? JSONEncoder().encode($0) }
        .flatMap { try? JSONSerialization.jsonObject(with: $0) })
  }

  /// Matches FoundationModels `logFeedbackAttachment(sentiment:issues:desiredResponseContent:)`.
  @discardableResult
  public func logFeedbackAttachment(
    sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
    desiredResponseContent: (any ConvertibleToGeneratedContent)?
  ) -> Data {
    feedbackAttachment(
      sentiment: sentiment, issues: issues,
      desired: desiredResponseContent.map { $0.generatedContent.jsonString })
  }

  /// Matches FoundationModels `logFeedbackAttachment(sentiment:issues:desiredResponseText:)`.
  @discardableResult
  public func logFeedbackAttachment(
    sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue] = [],
    desiredResponseText: String?
  ) -> Data {
    feedbackAttachment(sentiment: sentiment, issues: issues, desired: desiredResponseText)
  }

  private func feedbackAttachment(
    sentiment: LanguageModelFeedback.Sentiment?, issues: [LanguageModelFeedback.Issue], desired: Any?
  ) -> Data {
    var record: [String: Any] = [
      "issues": issues.map { issue -> [String: Any] in
        var entry: [String: Any] = ["category": issue.category.rawValue]
        if let explanation = issue.explanation { entry["explanation"] = explanation }
        return entry
      }
    ]
    if let sentiment { record["sentiment"] = sentiment.rawValue }
    if let desired { record["desiredOutput"] = desired }
    if let transcript = try? JSONEncoder().encode(transcript),
      let object = try? JSONSerialization.jsonObject(with: transcript)
    {
      record["transcript"] = object
    }
    return (try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])) ?? Data()
  }
}
