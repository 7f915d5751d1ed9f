import InferenceEngine
import JSON

extension ContextOptions.ReasoningLevel {
  /// The template variables that ask a thinking model for this level: `enable_thinking: true`
  /// where the template reads that switch, `reasoning_effort` low, medium or high (`light`,
  /// `moderate`, `deep`; a custom level as given) where it reads that one. `custom("off")`
  /// turns thinking off (`enable_thinking: false`).
  ///
  /// A model whose template always thinks takes every level but `off`.
  /// - Throws: `LanguageModelError.unsupportedCapability(.reasoning)` for a model whose template
  ///   has no thinking, or no switch to turn it off: the level is never silently ignored.
  func templateVariables(for syntax: ReasoningSyntax?) throws -> [JSONValue.Member] {
    guard let syntax else {
      throw LanguageModelError.unsupportedCapability(
        .init(
          capability: .reasoning,
          debugDescription:
            "This model's chat template has no thinking, so a reasoning level cannot apply; use a model that reasons (Qwen3, DeepSeek-R1, SmolLM3, …) or leave reasoningLevel unset."
        ))
    }
    let off = self == .custom("off") || self == .custom("none")
    var members: [JSONValue.Member] = []
    if syntax.switches.contains(.enableThinking) {
      members.append(.init(key: "enable_thinking", value: .bool(!off)))
    } else if off {
      throw LanguageModelError.unsupportedCapability(
        .init(capability: .reasoning, debugDescription: "This model always thinks: its template has no switch to turn it off."))
    }
    if syntax.switches.contains(.reasoningEffort), !off {
      let effort =
        switch self {
        case .light: "low"
        case .moderate: "medium"
        case .deep: "high"
        case .custom(let level): level
        }
      members.append(.init(key: "reasoning_effort", value: .string(effort)))
    }
    return members
  }
}
