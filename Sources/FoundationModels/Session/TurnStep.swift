/// What a turn's driver does next, as `TurnSteps` decides it.
enum TurnStep {
  /// Prepare the next model invocation: evaluate the profile and the dynamic instructions.
  case prepare
  /// Run these profile hooks, in order.
  case runHooks([ProfileHook.Action<>])
  /// Check a text the model is about to read with the guardrails.
  /// - `source`: what the text is, as an error names it ("the prompt").
  case checkInput(String, source: String)
  /// Invoke the model with this request.
  case invoke(LanguageModelExecutorGenerationRequest)
  /// Run the tools the model called.
  case runTools(Transcript.ToolCalls)
  /// The turn is over: its answer.
  case finish(TurnResult)
}

/// What a finished turn produced.
struct TurnResult {
  /// The turn's prompt as its hooks left it (nil when they removed it from the conversation).
  var prompt: Transcript.Entry?
  /// Every entry the model and the tools produced.
  var entries: [Transcript.Entry]
  /// The answer's text (JSON for structured requests).
  var text: String
  var rawContent: GeneratedContent
  var usage: LanguageModelSession.Usage
}
