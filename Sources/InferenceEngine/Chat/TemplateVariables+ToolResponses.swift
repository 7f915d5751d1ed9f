import JSON

extension TemplateVariables {
  /// Whether `source` is one of Gemma 4's first templates, which read a turn's tool outputs from
  /// its assistant message (`tool_responses`) rather than from `tool` messages; llama.cpp gives
  /// them so (`convert_tool_responses_gemma4`), and tells them by the comment the later
  /// template has.
  static func readsToolResponsesInTurn(_ source: String) -> Bool {
    source.contains("'<|tool_call>call:'") && source.contains("message['tool_responses']")
      && !source.contains("{#- OpenAI Chat Completions:")
  }

  /// `messages` (as `message(_:)` makes them) with the outputs after each assistant message
  /// with calls moved into it, as `tool_responses` (`{name, response}`: the call's tool, and the
  /// output, parsed where it is JSON), and the answer after them as its content.
  static func withToolResponsesInTurn(_ messages: [JSONValue]) -> [JSONValue] {
    func role(_ message: JSONValue) -> String? {
      if case .string(let role)? = message["role"] { role } else { nil }
    }
    func calls(_ message: JSONValue) -> [JSONValue] {
      if case .array(let calls)? = message["tool_calls"] { calls } else { [] }
    }
    var result: [JSONValue] = []
    var index = 0
    while index < messages.count {
      let message = messages[index]
      index += 1
      guard role(message) == "assistant", case .object(var members) = message, !calls(message).isEmpty else {
        result.append(message)
        continue
      }
      var responses: [JSONValue] = []
      while index < messages.count, role(messages[index]) == "tool" {
        let call = calls(message).indices.contains(responses.count) ? calls(message)[responses.count] : nil
        let name = call?["function"]?["name"] ?? messages[index]["tool_call_id"] ?? .string("")
        responses.append(
          .object([.init(key: "name", value: name), .init(key: "response", value: response(messages[index]))]))
        index += 1
      }
      if !responses.isEmpty { members.append(.init(key: "tool_responses", value: .array(responses))) }
      if index < messages.count, role(messages[index]) == "assistant", calls(messages[index]).isEmpty,
        let content = messages[index]["content"], !isEmptyText(content)
      {
        members.removeAll { $0.key == "content" }
        members.append(.init(key: "content", value: content))
        index += 1
      }
      result.append(.object(members))
    }
    return result
  }

  /// A tool output as a response: its JSON where it is JSON, else its text (input either way).
  private static func response(_ message: JSONValue) -> JSONValue {
    guard let content = message["content"] else { return .string("") }
    if case .string(let text)? = content["__input__"], let parsed = try? JSONValue(parsing: text) {
      return input(parsed)
    }
    return content
  }

  private static func isEmptyText(_ content: JSONValue) -> Bool {
    if case .string(let text)? = content["__input__"] { return text.isEmpty }
    if case .string(let text) = content { return text.isEmpty }
    return content == .null
  }
}
