/// Modifiers that configure a profile.
///
/// Each sets a default for the invocations of the profile it is applied to. Where the same
/// setting is applied twice, the one nearer the `Profile` wins (as in SwiftUI); history
/// transforms and hooks all apply, from the outside in: in
/// `.rollingWindow(entries: 10).droppingCompletedToolCalls()` (Apple's foundation-models-utilities)
/// the finished tool calls are dropped first, then the window is taken, as Apple's
/// documentation of those modifiers says ("modifiers apply in outside-in order"; the 27 SDK's
/// interface does not say).
extension LanguageModelSession.DynamicProfile {
  /// Sends this profile's invocations to `model`.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.model(_:)`. The session keeps one executor per
  /// distinct model — a model is identified by its type and its executor configuration — so a
  /// branch that comes back finds its executor (and the local model's cache) as it left it.
  public func model(_ model: some LanguageModel) -> some LanguageModelSession.DynamicProfile {
    ConfiguredProfile(content: self, setting: .model(model))
  }

  /// The temperature of this profile's invocations, unless the request sets one.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.temperature(_:)`.
  public func temperature(_ temperature: Double?) -> some LanguageModelSession.DynamicProfile {
    ConfiguredProfile(content: self, setting: .options { if $0.temperature == nil { $0.temperature = temperature } })
  }

  /// The sampling mode of this profile's invocations, unless the request sets one.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.samplingMode(_:)`.
  public func samplingMode(_ samplingMode: GenerationOptions.SamplingMode?) -> some LanguageModelSession.DynamicProfile
  {
    ConfiguredProfile(content: self, setting: .options { if $0.samplingMode == nil { $0.samplingMode = samplingMode } })
  }

  /// The response-token limit of this profile's invocations, unless the request sets one.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.maximumResponseTokens(_:)`.
  public func maximumResponseTokens(_ maximumResponseTokens: Int?) -> some LanguageModelSession.DynamicProfile {
    ConfiguredProfile(
      content: self,
      setting: .options {
        if $0.maximumResponseTokens == nil { $0.maximumResponseTokens = maximumResponseTokens }
      })
  }

  /// The reasoning level of this profile's invocations, unless the request's context options
  /// set one.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.reasoningLevel(_:)`.
  public func reasoningLevel(_ reasoningLevel: ContextOptions.ReasoningLevel?) -> some LanguageModelSession
    .DynamicProfile
  {
    ConfiguredProfile(
      content: self,
      setting: .contextOptions { if $0.reasoningLevel == nil { $0.reasoningLevel = reasoningLevel } })
  }

  /// Whether the model may, must or must not call tools in this profile's invocations, unless
  /// the request says.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.toolCallingMode(_:)`.
  public func toolCallingMode(_ toolCallingMode: GenerationOptions.ToolCallingMode?) -> some LanguageModelSession
    .DynamicProfile
  {
    ConfiguredProfile(
      content: self, setting: .options { if $0.toolCallingMode == nil { $0.toolCallingMode = toolCallingMode } })
  }

  /// Matches FoundationModels 27 `DynamicProfile.toolCalling(_:)`, the old name of
  /// ``toolCallingMode(_:)``.
  @available(*, deprecated, renamed: "toolCallingMode(_:)")
  public func toolCalling(_ toolCallingMode: GenerationOptions.ToolCallingMode?) -> some LanguageModelSession
    .DynamicProfile
  {
    self.toolCallingMode(toolCallingMode)
  }

  /// Rewrites the transcript this profile's invocations send, without changing the session's
  /// transcript.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.historyTransform(_:)`. `transform` gets the whole
  /// transcript of the invocation — the instructions entry (if any), the conversation, the
  /// current turn's prompt and the entries it has produced so far — and the invocation sends
  /// exactly what it returns: `{ Array($0.suffix(3)) }` drops the instructions once the
  /// transcript is longer than three entries, so a window that keeps them keeps the first entry
  /// apart. Use it to keep a window of recent entries, drop finished tool calls or replace old
  /// turns with a summary. Several transforms apply in turn, the outermost first.
  public func historyTransform(_ transform: @escaping ([Transcript.Entry]) -> [Transcript.Entry])
    -> some LanguageModelSession
    .DynamicProfile
  {
    ConfiguredProfile(content: self, setting: .historyTransform(transform))
  }

  /// Matches FoundationModels 27 `DynamicProfile.inputFilter(_:)`, the old name of
  /// ``historyTransform(_:)``.
  @available(*, deprecated, renamed: "historyTransform(_:)")
  public func inputFilter(_ filter: @escaping ([Transcript.Entry]) -> [Transcript.Entry]) -> some LanguageModelSession
    .DynamicProfile
  {
    historyTransform(filter)
  }

  /// What a failed request of this profile does to the transcript, unless the session's own
  /// `transcriptErrorHandlingPolicy` is set.
  ///
  /// Matches FoundationModels 27 `DynamicProfile.transcriptErrorHandlingPolicy(_:)`. The policy
  /// of the profile evaluated for the failing invocation applies.
  public func transcriptErrorHandlingPolicy(_ transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?)
    -> some LanguageModelSession.DynamicProfile
  {
    ConfiguredProfile(content: self, setting: .transcriptErrorHandlingPolicy(transcriptErrorHandlingPolicy))
  }
}
