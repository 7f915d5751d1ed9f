import Foundation
import FoundationModels
import JSON

/// OpenAI chat messages as a transcript: leading `system`/`developer` messages become the
/// instructions (with the request's tool definitions), `user` messages prompts, `assistant`
/// messages responses and tool calls, `tool` messages tool outputs (named after the call they
/// answer).
///
/// The last message must be the user's or a tool's: the model answers it.
enum ChatMessages {
  /// - Throws: `APIError` naming the message and field that is malformed or not supported.
  static func transcript(_ messages: [JSONValue], tools: [Transcript.ToolDefinition]) throws -> Transcript {
    guard !messages.isEmpty else { throw APIError.invalid("'messages' must not be empty", param: "messages") }
    var instructions: [String] = []
    var entries: [Transcript.Entry] = []
    var callNames: [String: String] = [:]
    for (index, message) in messages.enumerated() {
      let path = "messages[\(index)]"
      var fields = try JSONFields(message, path: path)
      guard let role = try fields.string("role") else {
        throw APIError.invalid("'\(path).role' is required", param: "\(path).role")
      }
      switch role {
      case "system", "developer":
        guard entries.isEmpty else {
          throw APIError.invalid(
            "'\(path)': \(role) messages must come before the conversation", param: "\(path).role")
        }
        instructions.append(try text(&fields, path: path, optional: false) ?? "")
      case "user":
        let content = try text(&fields, path: path, optional: false) ?? ""
        entries.append(.prompt(Transcript.Prompt(segments: [.text(.init(content: content))])))
      case "assistant":
        let content = try text(&fields, path: path, optional: true)
        _ = fields.value("refusal")
        let calls = try toolCalls(&fields, path: path)
        guard content?.isEmpty == false || !calls.isEmpty else {
          throw APIError.invalid("'\(path)' needs content or tool_calls", param: "\(path).content")
        }
        if let content, !content.isEmpty {
          entries.append(.response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: content))])))
        }
        if !calls.isEmpty {
          for call in calls { callNames[call.id] = call.toolName }
          entries.append(.toolCalls(Transcript.ToolCalls(calls)))
        }
      case "tool":
        guard let id = try fields.string("tool_call_id") else {
          throw APIError.invalid("'\(path).tool_call_id' is required", param: "\(path).tool_call_id")
        }
        guard let name = callNames[id] else {
          throw APIError.invalid(
            "'\(path).tool_call_id' '\(id)' answers no tool call of an earlier assistant message",
            param: "\(path).tool_call_id")
        }
        let content = try text(&fields, path: path, optional: false) ?? ""
        entries.append(
          .toolOutput(Transcript.ToolOutput(id: id, toolName: name, segments: [.text(.init(content: content))])))
      default:
        throw APIError.invalid(
          "'\(path).role' must be system, developer, user, assistant or tool, not '\(role)'", param: "\(path).role")
      }
      try fields.rejectUnknown()
    }
    return try ServedTranscript.make(
      entries, instructions: instructions, tools: tools,
      refusal: APIError.invalid(
        "the last message must be a user or tool message (the model answers it)", param: "messages"))
  }

  /// The message's `content`: a string, or text parts joined.
  private static func text(_ fields: inout JSONFields, path: String, optional: Bool) throws -> String? {
    guard let content = fields.value("content") else {
      if optional { return nil }
      throw APIError.invalid("'\(path).content' is required", param: "\(path).content")
    }
    switch content {
    case .string(let text):
      return text
    case .array(let parts):
      return try parts.enumerated().map { index, part in
        var part = try JSONFields(part, path: "\(path).content[\(index)]")
        let type = try part.string("type")
        guard type == "text" else {
          throw APIError.unsupported(
            part.name("type"), "content parts of type '\(type ?? "")': this server reads text parts only")
        }
        guard let text = try part.string("text") else {
          throw APIError.invalid("'\(part.name("text"))' is required", param: part.name("text"))
        }
        try part.rejectUnknown()
        return text
      }.joined(separator: "\n")
    default:
      throw fields.mistyped("content", "a string or an array of text parts")
    }
  }

  /// An assistant message's `tool_calls`.
  private static func toolCalls(_ fields: inout JSONFields, path: String) throws -> [Transcript.ToolCall] {
    guard let calls = try fields.array("tool_calls") else { return [] }
    return try calls.enumerated().map { index, value in
      var call = try JSONFields(value, path: "\(path).tool_calls[\(index)]")
      guard let id = try call.string("id") else {
        throw APIError.invalid("'\(call.name("id"))' is required", param: call.name("id"))
      }
      guard try call.string("type") ?? "function" == "function" else {
        throw APIError.invalid("'\(call.name("type"))' must be 'function'", param: call.name("type"))
      }
      guard var function = try call.object("function"), let name = try function.string("name") else {
        throw APIError.invalid("'\(call.name("function.name"))' is required", param: call.name("function"))
      }
      let arguments = try function.string("arguments") ?? "{}"
      let content: GeneratedContent
      do {
        content = try GeneratedContent(json: arguments)
        guard content.isComplete, case .structure = content.kind else { throw APIError.invalid("", param: nil) }
      } catch {
        throw APIError.invalid(
          "'\(function.name("arguments"))' must be the JSON text of an object", param: function.name("arguments"))
      }
      try function.rejectUnknown()
      try call.rejectUnknown()
      return Transcript.ToolCall(id: id, toolName: name, arguments: content)
    }
  }
}
