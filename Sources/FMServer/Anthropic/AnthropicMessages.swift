import Foundation
import FoundationModels
import JSON

/// Anthropic's messages as a transcript: `system` and the tool definitions become the
/// instructions, a user message's text its prompt and its `tool_result` blocks tool outputs
/// (named after the `tool_use` they answer), an assistant message's text a response and its
/// `tool_use` blocks tool calls. Earlier thinking blocks are left out, as chat templates leave
/// earlier turns' thinking out of the prompt.
///
/// The last message must be the user's: the model answers it.
enum AnthropicMessages {
  /// - Throws: `APIError` naming the message and block that is malformed or not supported.
  static func transcript(_ messages: [JSONValue], system: String?, tools: [Transcript.ToolDefinition]) throws
    -> Transcript
  {
    guard !messages.isEmpty else { throw APIError.invalid("'messages' must not be empty", param: "messages") }
    var entries: [Transcript.Entry] = []
    var callNames: [String: String] = [:]
    for (index, message) in messages.enumerated() {
      let path = "messages[\(index)]"
      var fields = try JSONFields(message, path: path)
      let role = try fields.string("role")
      guard role == "user" || role == "assistant" else {
        throw APIError.invalid("'\(path).role' must be user or assistant", param: "\(path).role")
      }
      guard let content = fields.value("content") else {
        throw APIError.invalid("'\(path).content' is required", param: "\(path).content")
      }
      let blocks: [JSONValue] =
        if case .string(let text) = content {
          [.object([member("type", .string("text")), member("text", .string(text))])]
        } else if case .array(let blocks) = content { blocks } else {
          throw fields.mistyped("content", "a string or an array of content blocks")
        }
      var texts: [String] = []
      var calls: [Transcript.ToolCall] = []
      for (number, block) in blocks.enumerated() {
        var block = try JSONFields(block, path: "\(path).content[\(number)]")
        _ = block.value("cache_control")
        switch (role, try block.string("type")) {
        case (_, "text"?):
          guard let text = try block.string("text") else {
            throw APIError.invalid("'\(block.name("text"))' is required", param: block.name("text"))
          }
          _ = try block.array("citations").map { citations in
            guard citations.isEmpty else {
              throw APIError.unsupported(block.name("citations"), "no documents are cited")
            }
          }
          texts.append(text)
        case ("assistant", "tool_use"?):
          guard let id = try block.string("id"), let name = try block.string("name"),
            case .object? = block.value("input")
          else {
            throw APIError.invalid("'\(block.path)' needs id, name and an object input", param: block.path)
          }
          let input = block.value("input") ?? .object([])
          callNames[id] = name
          calls.append(
            Transcript.ToolCall(id: id, toolName: name, arguments: try GeneratedContent(json: input.compactText)))
        case ("assistant", "thinking"?), ("assistant", "redacted_thinking"?):
          _ = block.value("thinking")
          _ = block.value("signature")
          _ = block.value("data")
        case ("user", "tool_result"?):
          guard let id = try block.string("tool_use_id"), let name = callNames[id] else {
            throw APIError.invalid(
              "'\(block.name("tool_use_id"))' answers no tool_use of an earlier assistant message",
              param: block.name("tool_use_id"))
          }
          let result =
            try block.value("content").map { value in
              if case .string(let text) = value { return text }
              return try textBlocks(value, path: block.name("content"))
            } ?? ""
          let isError = try block.bool("is_error") ?? false
          if !texts.isEmpty {
            throw APIError.invalid(
              "'\(block.path)': tool_result blocks must come before text in a user message", param: block.path)
          }
          entries.append(
            .toolOutput(
              Transcript.ToolOutput(
                id: id, toolName: name, segments: [.text(.init(content: isError ? "Error: \(result)" : result))])))
        case (_, let type):
          throw APIError.unsupported(
            block.name("type"),
            "\(role ?? "") content blocks of type '\(type ?? "")': this server reads text, tool_use, tool_result and thinking blocks"
          )
        }
        try block.rejectUnknown()
      }
      try fields.rejectUnknown()
      let text = texts.joined(separator: "\n")
      if role == "user" {
        if !texts.isEmpty { entries.append(.prompt(Transcript.Prompt(segments: [.text(.init(content: text))]))) }
      } else {
        if !texts.isEmpty {
          entries.append(.response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: text))])))
        }
        if !calls.isEmpty { entries.append(.toolCalls(Transcript.ToolCalls(calls))) }
      }
    }
    return try ServedTranscript.make(
      entries, instructions: system.map { [$0] }?.filter { !$0.isEmpty } ?? [], tools: tools,
      refusal: APIError.invalid(
        "the last message must be the user's, with text or tool results (the model answers it)", param: "messages"))
  }

  /// An array of text blocks (`system`, a tool result's content), joined.
  static func textBlocks(_ value: JSONValue, path: String) throws -> String {
    guard case .array(let blocks) = value else {
      throw APIError.invalid("'\(path)' must be a string or an array of text blocks", param: path, code: "invalid_type")
    }
    return try blocks.enumerated().map { index, block in
      var fields = try JSONFields(block, path: "\(path)[\(index)]")
      guard try fields.string("type") == "text", let text = try fields.string("text") else {
        throw APIError.unsupported(fields.name("type"), "only text blocks are read here")
      }
      _ = fields.value("cache_control")
      try fields.rejectUnknown()
      return text
    }.joined(separator: "\n")
  }
}
