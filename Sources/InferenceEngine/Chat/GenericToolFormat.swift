import JSON

/// Tool calling for a model whose template has no tool format of its own: the tools are
/// described at the end of the system message, calls are the assistant's text and outputs
/// the user's, in the Hermes format that Qwen2.5 was trained on (`docs/TOOLS.md`).
///
///     <tool_call>
///     {"name": "getWeather", "arguments": {"city": "Paris"}}
///     </tool_call>
enum GenericToolFormat {
  /// The conversation with its tools, calls and outputs written as plain messages.
  static func messages(_ messages: [ChatMessage], tools: [String]) -> [ChatMessage] {
    var result: [ChatMessage] = []
    var rest = messages[...]
    if !tools.isEmpty {
      if let first = rest.first, first.role == .system {
        result.append(ChatMessage(role: .system, content: first.content + "\n\n" + toolsBlock(tools)))
        rest = rest.dropFirst()
      } else {
        result.append(ChatMessage(role: .system, content: toolsBlock(tools)))
      }
    }
    var index = rest.startIndex
    while index < rest.endIndex {
      let message = rest[index]
      switch message.role {
      case .tool:
        // Consecutive outputs share one user turn, each in a <tool_response> block.
        var outputs: [String] = []
        while index < rest.endIndex, rest[index].role == .tool {
          outputs.append("<tool_response>\n\(rest[index].content)\n</tool_response>")
          index += 1
        }
        result.append(ChatMessage(role: .user, content: outputs.joined(separator: "\n")))
        continue
      case .assistant where !message.toolCalls.isEmpty:
        let calls = message.toolCalls.map(callText)
        let text = (message.content.isEmpty ? [] : [message.content]) + calls
        result.append(ChatMessage(role: .assistant, content: text.joined(separator: "\n"), reasoning: message.reasoning))
      default:
        result.append(message)
      }
      index += 1
    }
    return result
  }

  /// A call as the model writes it: arguments as generated (compact, under the tool's schema),
  /// so the next round finds the call in the KV cache as it was evaluated.
  static func callText(_ call: ChatMessage.ToolCall) -> String {
    "<tool_call>\n{\"name\": \(JSONValue.string(call.name).compactText), \"arguments\": \(call.argumentsJSON)}\n</tool_call>"
  }

  /// The tool section, as Qwen2.5's template appends it to its system message (with single
  /// braces around the example call, where that template's text has doubled ones, which
  /// models then imitate).
  static func toolsBlock(_ tools: [String]) -> String {
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
      + "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
      + tools.map { "\n" + TemplateJSON.spaced($0) }.joined()
      + "\n</tools>\n\nFor each function call, return a json object with function name and arguments "
      + "within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, "
      + "\"arguments\": <args-json-object>}\n</tool_call>"
  }
}
