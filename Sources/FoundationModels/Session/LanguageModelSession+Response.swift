extension LanguageModelSession {
  /// Matches FoundationModels `LanguageModelSession.Response`: the result of one turn.
  public struct Response<Content> where Content: Generable {
    /// The answer, as the requested type.
    public let content: Content
    /// The answer as generated content; the same as `content` when `Content` is `GeneratedContent`.
    public let rawContent: GeneratedContent
    /// The entries this turn appended to the transcript: the prompt, any reasoning, tool calls
    /// and tool outputs, then the response.
    public let transcriptEntries: ArraySlice<Transcript.Entry>
    /// The tokens of this turn, every model invocation of a tool loop included (27).
    public let usage: Usage

    init(content: Content, rawContent: GeneratedContent, transcriptEntries: ArraySlice<Transcript.Entry>, usage: Usage)
    {
      self.content = content
      self.rawContent = rawContent
      self.transcriptEntries = transcriptEntries
      self.usage = usage
    }
  }
}

extension LanguageModelSession.Response: Sendable where Content: Sendable {}
