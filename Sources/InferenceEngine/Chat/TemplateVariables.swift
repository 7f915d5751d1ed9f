import Foundation
import JSON

/// The variables a chat template renders with, as Hugging Face's `transformers` gives them:
/// `messages`, `tools` (`None` when there are none), `documents` (`None`),
/// `add_generation_prompt`, `bos_token`, `eos_token`, and the caller's own switches
/// (`enable_thinking`, `reasoning_effort`, …).
///
/// Two more are given as llama.cpp gives them, for templates that read variables their users
/// pass by convention (FireFunction v2's are `functions` and `datetime`): `datetime`, the day
/// (`Nov 14 2023`, local time, as `common_chat_extra_context` writes it), and `functions`, the
/// tool definitions as JSON indented by two spaces, or `""` when there are none.
///
/// Every string that came from a conversation — contents, tool definitions, call arguments,
/// tool outputs — is marked as input (`{"__input__": …}`), so none of it can become a control token.
enum TemplateVariables {
  /// What `tools` is when there are none: `None`, as `transformers` passes it, or an empty
  /// list for a template that iterates it anyway.
  enum NoTools { case none, emptyList }

  /// The context of one rendering.
  /// - Parameters:
  ///   - stringArguments: whether calls' arguments are given as their JSON text rather than as
  ///     objects, for a template that only renders them so (`JinjaTemplate.takesStringArguments`).
  ///   - now: the time `datetime` is the day of.
  /// The message key of past thinking most templates read (`ReasoningSyntax.messageKey`).
  static let reasoningKey = "reasoning_content"

  static func context(
    messages: [ChatMessage], tools: [JSONValue], noTools: NoTools = .none, stringArguments: Bool = false,
    reasoningKey: String = reasoningKey, toolResponsesInTurn: Bool = false, addGenerationPrompt: Bool,
    bosToken: String, eosToken: String, extra: [JSONValue.Member], now: Date
  ) throws -> JSONValue {
    let messages = try messages.map { try message($0, stringArguments: stringArguments, reasoningKey: reasoningKey) }
    var members: [JSONValue.Member] = [
      .init(key: "messages", value: .array(toolResponsesInTurn ? withToolResponsesInTurn(messages) : messages)),
      .init(key: "add_generation_prompt", value: .bool(addGenerationPrompt)),
      .init(key: "bos_token", value: .string(bosToken)),
      .init(key: "eos_token", value: .string(eosToken)),
    ]
    let noToolsValue: JSONValue = noTools == .none ? .null : .array([])
    members.append(.init(key: "tools", value: tools.isEmpty ? noToolsValue : .array(tools.map(input))))
    members.append(.init(key: "documents", value: .null))
    members.append(.init(key: "functions", value: input(tools.isEmpty ? "" : JSONValue.array(tools).indentedText())))
    members.append(.init(key: "datetime", value: .string(day(now))))
    for member in extra {
      members.removeAll { $0.key == member.key }
      members.append(member)
    }
    return .object(members)
  }

  /// A message as templates read it (OpenAI's shape): tool calls with their arguments as an
  /// object (or their JSON text), a tool output with its call's id and tool's name.
  /// - Parameter reasoningKey: the key of past thinking (`ReasoningSyntax.messageKey`).
  static func message(
    _ message: ChatMessage, stringArguments: Bool = false, reasoningKey: String = reasoningKey
  ) throws -> JSONValue {
    var members: [JSONValue.Member] = [
      .init(key: "role", value: .string(message.role.rawValue)),
      .init(key: "content", value: input(message.content)),
    ]
    if let reasoning = message.reasoning { members.append(.init(key: reasoningKey, value: input(reasoning))) }
    if !message.toolCalls.isEmpty {
      members.append(
        .init(
          key: "tool_calls",
          value: .array(try message.toolCalls.map { try toolCall($0, stringArguments: stringArguments) })))
    }
    if let name = message.toolName { members.append(.init(key: "name", value: input(name))) }
    if let id = message.toolCallID { members.append(.init(key: "tool_call_id", value: input(id))) }
    return .object(members)
  }

  private static func toolCall(_ call: ChatMessage.ToolCall, stringArguments: Bool) throws -> JSONValue {
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
        value: .object([
          .init(key: "name", value: input(call.name)),
          .init(key: "arguments", value: stringArguments ? input(call.argumentsJSON) : input(arguments)),
        ])))
    return .object(members)
  }

  /// `now`'s day as `common_chat_extra_context` writes `datetime` (`%b %d %Y`, local time).
  private static func day(_ now: Date) -> String {
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    let date = Calendar(identifier: .gregorian).dateComponents(in: .current, from: now)
    guard let month = date.month, let day = date.day, let year = date.year else { return "" }
    return months[month - 1] + " " + (day < 10 ? "0" : "") + String(day) + " " + String(year)
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
