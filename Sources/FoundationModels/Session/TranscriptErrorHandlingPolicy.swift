/// What a failed request does to a session's transcript.
///
/// Matches FoundationModels 27 `TranscriptErrorHandlingPolicy`: there is no public initializer,
/// so these two values are all there are. Set one with
/// `LanguageModelSession.transcriptErrorHandlingPolicy`; nil, the default, means
/// ``revertTranscript``: the 26 behaviour (Apple leaves the default unstated). A cancelled
/// request always leaves the transcript as it was, whatever the policy: it did not fail, its
/// caller stopped it.
public struct TranscriptErrorHandlingPolicy: Sendable {
  /// Whether a failed turn's entries stay in the transcript.
  let keepsFailedTurn: Bool

  /// A failed request leaves the transcript exactly as it was before the request.
  public static let revertTranscript = TranscriptErrorHandlingPolicy(keepsFailedTurn: false)

  /// A failed request keeps its prompt and every entry the model and the tools produced before
  /// the failure, then throws the error.
  ///
  /// The kept entries are those of the finished rounds (a tool loop's calls and outputs) and
  /// what the failing invocation had sent: a partial response or reasoning, tool calls whose
  /// arguments may be incomplete (kept as the text received). The outputs of a round of tool
  /// calls are kept only when every call of the round succeeded, so after a tool error the
  /// transcript ends with the calls. The failed request's tokens are not added to the session's
  /// `usage`, which counts completed requests.
  public static let preserveTranscript = TranscriptErrorHandlingPolicy(keepsFailedTurn: true)
}
