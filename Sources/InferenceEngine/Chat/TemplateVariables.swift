import JSON

/// The variables a chat template renders with, as Hugging Face's `transformers` gives them:
/// `messages`, `tools` (`None` when there are none), `documents` (`None`),
/// `add_generation_prompt`, `bos_token`, `eos_token`, and the caller's own switches
/// (`enable_thinking`, `reasoning_effort`, …).
///
/// Every string that came from a conversation — contents, tool definitions, call arguments,
/// tool outputs — is marked as input (`{"__input__": …}`), so none of it can become a control token.
enum TemplateVariables {
  /// What `tools` is when there are none: `None`, as `transformers` passes it, or an empty
  /// list for a template that iterates it anyway.
  enum NoTools { case none, emptyList }

  static func context(
    messages: [ChatMessage], tools: [JSONValue], noTools: NoTools = .none, addGenerationPrompt: Bool,
    bosToken: String, eosToken: String, extra: [JSONValue.Member]
  ) throws -> JSONValue {
    var members: [JSONValue.Member] = [
      .init(key: "messages", value: .array(try messages.map(message))),
      .init(key: "add_generation_prompt", value: .bool(addGenerationPrompt)),
      .init(key: "bos_token", value: .string(bosToken)),
      .init(key: "eos_token", value: .string(eosToken)),
    ]
    let noToolsValue: JSONValue = noTools == .none ? .null : .array([])
    members.append(.init(key: "tools", value: tools.isEmpty ? noToolsValue : .array(tools.map(input))))
    members.append(.init(key: "documents", value: .null))
    for member in extra {
      members.removeAll { $0.key == member.key }
      members.append(member)
    }
    return .object(members)
  }

  /// A message as templates read it (OpenAI's shape): tool calls with their arguments as an
  /// object, a tool output with its call's id and tool's name.
  static func message(_ message: ChatMessage) throws -> JSONValue {
    var members: [JSONValue.Member] = [
      .init(key: "role", value: .string(message.role.rawValue)),
      .init(key: "content", value: input(message.content)),
    ]
    if let reasoning = message.reasoning { members.append(.init(key: "reasoning_content", value: input(reasoning))) }
    if !message.toolCalls.isEmpty {
      members.append(.init(key: "tool_calls", value: .array(try message.toolCalls.map(toolCall))))
    }
    if let name = message.toolName { members.append(.init(key: "name", value: input(name))) }
    if let id = message.toolCallID { members.append(.init(key: "tool_call_id", value: input(id))) }
    return .object(members)
  }

  private static func toolCall(_ call: ChatMessage.ToolCall) throws -> JSONValue {
    let arguments: JSONValue
    do {
      arguments = try JSONValue(parsing: call.argumentsJSON)
    } catch {
      throw EngineError(.invalidRequest, "the arguments of a call to \(call.name) are not JSON: \(error)")
    }
    var members: [JSONValue.Member] = []
    if let id = call.id { members.append(.init(key: "id", value: input(id))) }
    members.append(.init(key: "type", value: .string("function")))
    members.append(
      .init(
        key: "function",
        value: .object([.init(key: "name", value: input(call.name)), .init(key: "arguments", value: input(arguments))])))
    return .object(members)
  }

  /// `value` with every string in it marked as input.
  static func input(_ value: JSONValue) -> JSONValue {
    switch value {
    case .string(let text): input(text)
    case .array(let elements): .array(elements.map(input))
    case .object(let members): .object(members.map { .init(key: $0.key, value: input($0.value)) })
    case .null, .bool, .number: value
    }
  }

  static func input(_ text: String) -> JSONValue { .object([.init(key: "__input__", value: .string(text))]) }
}
