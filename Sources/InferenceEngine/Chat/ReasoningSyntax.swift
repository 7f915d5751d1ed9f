/// How a template's model thinks before it answers: the markers around its thinking, and the
/// switch the template reads to turn thinking on or set its effort.
///
/// Read from the template source: `<think>`…`</think>` (Qwen3, DeepSeek-R1, SmolLM3, GLM,
/// Granite, …) and `[THINK]`…`[/THINK]` (Mistral's reasoning models). gpt-oss's harmony
/// channels are not read yet: such a model's analysis stays in its answer text.
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
  /// The switches the template reads; empty when it always thinks (DeepSeek-R1's distills).
  public var switches: [Switch]

  /// The syntax of `source`, or nil when the template knows no thinking.
  init?(template source: String) {
    if source.contains("</think>") {
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

  /// Whether the prompt ends with the thinking closed (thinking switched off): the output is
  /// the answer alone.
  public func closesThinking(_ prompt: RenderedPrompt) -> Bool {
    prompt.text.reversed().drop { $0.isWhitespace }.reversed().ends(with: closing)
  }

  /// Whether the model's output starts inside its thinking: the prompt's generation prompt
  /// opened it (DeepSeek-R1's `<think>\n`), and did not close it at once (Qwen3 with thinking
  /// off writes `<think>\n\n</think>\n\n`).
  public func startsInThinking(_ prompt: RenderedPrompt) -> Bool {
    let text = prompt.text
    guard let open = text.range(of: opening, options: .backwards) else { return false }
    let after = text[open.upperBound...]
    return !after.contains(closing) && after.allSatisfy(\.isWhitespace)
  }
}

extension Array where Element == Character {
  fileprivate func ends(with suffix: String) -> Bool { String(self).hasSuffix(suffix) }
}
