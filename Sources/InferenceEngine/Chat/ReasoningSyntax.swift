/// How a template's model thinks before it answers: the markers around its thinking, and the
/// switch the template reads to turn thinking on or set its effort.
///
/// Read from the template source: `<think>`…`</think>` (Qwen3, DeepSeek-R1, SmolLM3, GLM,
/// Granite, …), `[THINK]`…`[/THINK]` (Mistral's reasoning models), Gemma 4's
/// `<|channel>thought\n`…`<channel|>` and gpt-oss's harmony
/// channels: `<|channel|>analysis<|message|>`…`<|end|>`, then `<|start|>assistant` and the answer
/// in `<|channel|>final<|message|>` (or a call).
public struct ReasoningSyntax: Sendable, Equatable {
  /// What the template reads to control thinking.
  public enum Switch: Sendable, Equatable {
    /// `enable_thinking` (a Boolean).
    case enableThinking
    /// `reasoning_effort` (`low`, `medium`, `high`).
    case reasoningEffort
  }

  public var opening: String
  public var closing: String
  /// What the model writes after the closing marker before its answer, forced and not part of
  /// the answer (harmony's `<|start|>assistant`); empty for most templates.
  public var continuation = ""
  /// What opens the answer and is not part of it (harmony's `<|channel|>final<|message|>`).
  public var answerHeader = ""
  /// The message key the template reads past thinking from: `reasoning_content`, or gpt-oss's
  /// `thinking`.
  public var messageKey = TemplateVariables.reasoningKey
  /// The switches the template reads; empty when it always thinks (DeepSeek-R1's distills).
  public var switches: [Switch]

  /// The syntax of `source`, or nil when the template knows no thinking.
  init?(template source: String) {
    if source.contains("<|channel|>analysis<|message|>") {
      (opening, closing) = ("<|channel|>analysis<|message|>", "<|end|>")
      continuation = "<|start|>assistant"
      answerHeader = "<|channel|>final<|message|>"
      messageKey = "thinking"
    } else if source.contains("<|channel>thought") {
      // Gemma 4's thought channel.
      (opening, closing) = ("<|channel>thought\n", "<channel|>")
    } else if source.contains("</think>") {
      (opening, closing) = ("<think>", "</think>")
    } else if source.contains("[/THINK]") {
      (opening, closing) = ("[THINK]", "[/THINK]")
    } else {
      return nil
    }
    switches = []
    if source.contains("enable_thinking") { switches.append(.enableThinking) }
    if source.contains("reasoning_effort") { switches.append(.reasoningEffort) }
  }

  /// How a model's output begins after `prompt`.
  public enum Start: Sendable, Equatable {
    /// The prompt ended with the thinking closed (thinking switched off, as Qwen3's template
    /// writes `<think>\n\n</think>\n\n`): the output is the answer alone.
    case answer
    /// The prompt opened the thinking (DeepSeek-R1's `<think>\n`): the output starts inside it.
    case thinking
    /// The model may open its thinking, or answer at once.
    case either
  }

  /// How the output begins after `prompt`, read from the end of its text.
  public func start(after prompt: RenderedPrompt) -> Start {
    // A harmony prompt ends with the assistant's `<|start|>assistant`: the model chooses its channel.
    if !continuation.isEmpty { return .either }
    let text = prompt.text
    let end = text.reversed().drop(while: \.isWhitespace).count
    let trimmed = text.prefix(end)
    if trimmed.hasSuffix(closing) { return .answer }
    return trimmed.hasSuffix(opening) ? .thinking : .either
  }
}
