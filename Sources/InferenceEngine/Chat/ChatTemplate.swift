/// How a model family turns a conversation into prompt text.
///
/// We ship ChatML models (SmolLM2, Qwen2.5), so ChatML is rendered natively rather than through a
/// Jinja interpreter. The family and its details are read from the template in the GGUF metadata
/// (`tokenizer.chat_template`), and tests check the rendering against llama.cpp's own.
public struct ChatTemplate: Sendable, Equatable {
  /// The system prompt the template inserts when a conversation has none.
  public var defaultSystemPrompt: String?
  /// Whether the template defines Qwen-style tool calling (`<tools>`, `<tool_call>`): the model
  /// was trained on the tool format.
  ///
  /// Others are given the same format in their system turn.
  public var supportsTools: Bool

  public init(defaultSystemPrompt: String?, supportsTools: Bool) {
    self.defaultSystemPrompt = defaultSystemPrompt
    self.supportsTools = supportsTools
  }

  /// Reads the template family from GGUF metadata.
  /// - Throws: `EngineError` with `.unsupportedArchitecture` when the template is not ChatML.
  public init(metadataTemplate: String?) throws {
    guard let template = metadataTemplate, template.contains("<|im_start|>") else {
      throw EngineError(
        .unsupportedArchitecture,
        "the model's chat template is not ChatML (<|im_start|>); only ChatML models (SmolLM2, Qwen2.5) are supported")
    }
    self.init(
      defaultSystemPrompt: Self.defaultSystemPrompt(in: template),
      supportsTools: template.contains("<tool_call>"))
  }

  /// Finds the literal system turn a template emits when the first message is not a system one.
  static func defaultSystemPrompt(in template: String) -> String? {
    // Jinja string literals may hold a real newline or the escape `\n`; accept both.
    for marker in ["<|im_start|>system\n", "<|im_start|>system\\n"] {
      var searchStart = template.startIndex
      while let open = template.range(of: marker, range: searchStart..<template.endIndex) {
        searchStart = open.upperBound
        guard let close = template.range(of: "<|im_end|>", range: open.upperBound..<template.endIndex)
        else { break }
        let candidate = template[open.upperBound..<close.lowerBound]
        // A literal default: no Jinja expressions or string concatenation inside.
        if !candidate.isEmpty && !candidate.contains(where: { "'\"{}+".contains($0) }) {
          return candidate.replacingOccurrences(of: "\\n", with: "\n")
        }
      }
    }
    return nil
  }

  /// Renders a conversation.
  /// - Parameters:
  ///   - tools: tool definitions as JSON objects (`{"type":"function","function":{…}}`), put in
  ///     Qwen2.5's tool block of the system turn whatever the model.
  ///   - addGenerationPrompt: whether to open the assistant's turn at the end.
  ///   - closingLastMessage: whether the last message's turn is closed; an open one can be
  ///     continued by later text (a prompt prefix evaluated ahead of its prompt).
  public func render(
    _ messages: [ChatMessage], tools: [String] = [], addGenerationPrompt: Bool = true, closingLastMessage: Bool = true
  ) -> RenderedPrompt {
    var prompt = RenderedPrompt()
    var remaining = messages[...]
    var system: String? = defaultSystemPrompt
    if let first = remaining.first, first.role == .system {
      system = first.content
      remaining = remaining.dropFirst()
    }
    // Tools need a system turn to be described in, even where the template has no default.
    if system != nil || !tools.isEmpty {
      prompt.control("<|im_start|>system\n")
      prompt.content(system ?? "")
      if !tools.isEmpty { renderToolsBlock(tools, into: &prompt) }
      prompt.control("<|im_end|>\n")
      // Sessions with the same instructions and tools share the system turn.
      prompt.endPart()
    }
    var index = remaining.startIndex
    while index < remaining.endIndex {
      let message = remaining[index]
      switch message.role {
      case .tool:
        // Consecutive tool results share one user turn, each in a <tool_response> block.
        prompt.control("<|im_start|>user")
        while index < remaining.endIndex, remaining[index].role == .tool {
          prompt.control("\n<tool_response>\n")
          prompt.content(remaining[index].content)
          prompt.control("\n</tool_response>")
          index += 1
        }
        prompt.control("<|im_end|>\n")
        continue
      case .assistant where !message.toolCalls.isEmpty:
        prompt.control("<|im_start|>assistant")
        if !message.content.isEmpty {
          prompt.control("\n")
          prompt.content(message.content)
        }
        for call in message.toolCalls {
          prompt.control("\n<tool_call>\n{\"name\": \"")
          prompt.content(call.name)
          prompt.control("\", \"arguments\": ")
          // As generated (compact, under the tool's schema), not as `tojson` would space them:
          // the next round then finds the call in the KV cache and evaluates only what follows.
          prompt.content(call.argumentsJSON)
          prompt.control("}\n</tool_call>")
        }
        prompt.control("<|im_end|>\n")
      default:
        prompt.control("<|im_start|>\(message.role.rawValue)\n")
        prompt.content(message.content)
        if closingLastMessage || index + 1 < remaining.endIndex { prompt.control("<|im_end|>\n") }
      }
      index += 1
    }
    if addGenerationPrompt { prompt.control("<|im_start|>assistant\n") }
    return prompt
  }

  /// The tool section Qwen2.5's template appends to the system message, as llama.cpp renders
  /// the template in its GGUF (the doubled braces are the template's own).
  private func renderToolsBlock(_ tools: [String], into prompt: inout RenderedPrompt) {
    prompt.control(
      "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
        + "You are provided with function signatures within <tools></tools> XML tags:\n<tools>")
    for tool in tools {
      prompt.control("\n")
      prompt.content(TemplateJSON.spaced(tool))
    }
    prompt.control(
      "\n</tools>\n\nFor each function call, return a json object with function name and arguments "
        + "within <tool_call></tool_call> XML tags:\n<tool_call>\n{{\"name\": <function-name>, "
        + "\"arguments\": <args-json-object>}}\n</tool_call>")
  }
}
