extension LanguageModelSession.GenerationError {
  /// A refusal by the model to produce the requested content.
  ///
  /// Matches FoundationModels `LanguageModelSession.GenerationError.Refusal`. The
  /// `explanation` and `explanationStream` members, which ask the model why it refused, belong to
  /// the session and are added next to `LanguageModelSession` by its author; they read
  /// ``transcriptEntries``.
  public struct Refusal: Sendable {
    /// The entries leading up to the refusal, from which its explanation is produced.
    let transcriptEntries: [Transcript.Entry]
    /// The model that refused, which explains it; nil for a refusal made by hand (the default
    /// model explains those).
    let runner: ModelRunner?

    /// Creates a refusal.
    ///
    /// Matches FoundationModels `GenerationError.Refusal.init(transcriptEntries:)`.
    public init(transcriptEntries: [Transcript.Entry]) {
      self.init(transcriptEntries: transcriptEntries, runner: nil)
    }

    init(transcriptEntries: [Transcript.Entry], runner: ModelRunner?) {
      self.transcriptEntries = transcriptEntries
      self.runner = runner
    }
  }
}
