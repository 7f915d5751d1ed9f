import Foundation
import FoundationModels
import JSON

/// The Responses API's items — messages, `function_call`, `function_call_output` and
/// `reasoning` — checked and given ids, and a conversation of them as a transcript.
enum ResponseItems {
  /// `input` (a string, or an array of items) as items in one shape, each with an id: a string
  /// is one user message; a message's string content is one `input_text` part (`output_text` for
  /// the assistant's).
  /// - Throws: `APIError` naming the item and member that is malformed or not supported.
  static func normalized(_ input: JSONValue) throws -> [JSONValue] {
    switch input {
    case .string(let text):
      return [message(role: "user", parts: [part("input_text", text)])]
    case .array(let items):
      guard !items.isEmpty else { throw APIError.invalid("'input' must not be empty", param: "input") }
      return try items.enumerated().map { try item($1, path: "input[\($0)]") }
    default:
      throw APIError.invalid("'input' must be a string or an array of items", param: "input", code: "invalid_type")
    }
  }

  /// A new id with `prefix` (`msg`, `fc`, `resp`…): the prefix, `_` and 48 hex digits.
  static func id(_ prefix: String) -> String {
    prefix + "_" + (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased()
  }

  static func message(role: String, parts: [JSONValue], id: String? = nil) -> JSONValue {
    .object([
      member("id", .string(id ?? Self.id("msg"))), member("type", .string("message")),
      member("role", .string(role)), member("content", .array(parts)), member("status", .string("completed")),
    ])
  }

  static func part(_ type: String, _ text: String) -> JSONValue {
    var members = [member("type", .string(type)), member("text", .string(text))]
    if type == "output_text" { members += [member("annotations", .array([])), member("logprobs", .array([]))] }
    return .object(members)
  }

  private static func item(_ value: JSONValue, path: String) throws -> JSONValue {
    var fields = try JSONFields(value, path: path)
    let given = try fields.string("id")
    _ = try fields.string("status")
    let type = try fields.string("type") ?? "message"
    let item: JSONValue
    switch type {
    case "message":
      guard let role = try fields.string("role") else {
        throw APIError.invalid("'\(path).role' is required", param: "\(path).role")
      }
      guard ["user", "assistant", "system", "developer"].contains(role) else {
        throw APIError.invalid(
          "'\(path).role' must be user, assistant, system or developer, not '\(role)'", param: "\(path).role")
      }
      guard let content = fields.value("content") else {
        throw APIError.invalid("'\(path).content' is required", param: "\(path).content")
      }
      item = message(role: role, parts: try parts(content, role: role, path: "\(path).content"), id: given)
    case "function_call":
      let callID = try required(&fields, "call_id", path)
      let name = try required(&fields, "name", path)
      let arguments = try required(&fields, "arguments", path)
      guard let content = try? GeneratedContent(json: arguments), content.isComplete,
        case .structure = content.kind
      else {
        throw APIError.invalid("'\(path).arguments' must be the JSON text of an object", param: "\(path).arguments")
      }
      item = .object([
        member("id", .string(given ?? id("fc"))), member("type", .string("function_call")),
        member("call_id", .string(callID)), member("name", .string(name)), member("arguments", .string(arguments)),
        member("status", .string("completed")),
      ])
    case "function_call_output":
      let callID = try required(&fields, "call_id", path)
      guard let output = fields.value("output") else {
        throw APIError.invalid("'\(path).output' is required", param: "\(path).output")
      }
      let text: String
      if case .string(let string) = output {
        text = string
      } else {
        text = try parts(output, role: "user", path: "\(path).output").compactMap { $0["text"]?.stringValue }
          .joined(separator: "\n")
      }
      item = .object([
        member("id", .string(given ?? id("fco"))), member("type", .string("function_call_output")),
        member("call_id", .string(callID)), member("output", .string(text)), member("status", .string("completed")),
      ])
    case "reasoning":
      // The model's earlier thinking, as a client passes a response's output back. Chat
      // templates leave earlier turns' thinking out of the prompt, so it is kept as given
      // (returned by input_items) and not rendered.
      _ = fields.value("summary")
      _ = fields.value("content")
      if fields.value("encrypted_content") != nil {
        throw APIError.unsupported(
          "\(path).encrypted_content", "this server neither writes nor reads encrypted thinking")
      }
      item = value.setting("id", .string(given ?? id("rs")))
    default:
      throw APIError.unsupported(
        "\(path).type",
        "items of type '\(type)': this server reads message, function_call, function_call_output and reasoning items")
    }
    try fields.rejectUnknown()
    return item
  }

  private static func required(_ fields: inout JSONFields, _ key: String, _ path: String) throws -> String {
    guard let value = try fields.string(key) else {
      throw APIError.invalid("'\(path).\(key)' is required", param: "\(path).\(key)")
    }
    return value
  }

  /// A message's content as parts: `input_text` and `output_text` (images and files are
  /// refused: the model reads text only).
  private static func parts(_ content: JSONValue, role: String, path: String) throws -> [JSONValue] {
    switch content {
    case .string(let text):
      return [part(role == "assistant" ? "output_text" : "input_text", text)]
    case .array(let parts):
      return try parts.enumerated().map { index, value in
        var fields = try JSONFields(value, path: "\(path)[\(index)]")
        let type = try fields.string("type")
        guard let type, ["input_text", "output_text"].contains(type) else {
          throw APIError.unsupported(
            fields.name("type"), "content parts of type '\(type ?? "")': this server reads input_text and output_text")
        }
        guard let text = try fields.string("text") else {
          throw APIError.invalid("'\(fields.name("text"))' is required", param: fields.name("text"))
        }
        _ = fields.value("annotations")
        _ = fields.value("logprobs")
        try fields.rejectUnknown()
        return part(type, text)
      }
    default:
      throw APIError.invalid("'\(path)' must be a string or an array of parts", param: path, code: "invalid_type")
    }
  }

  /// The transcript of a conversation: `instructions` and any system or developer messages
  /// before the first exchange are the instructions (with `tools`), then `history` (items of the
  /// responses continued) and `input` in order.
  /// - Throws: `APIError` for a system message after the conversation began, a tool output
  ///   that answers no call, and a conversation the model cannot answer (it must end with a
  ///   user message or a tool output).
  static func transcript(
    instructions: String?, history: [JSONValue], input: [JSONValue], tools: [Transcript.ToolDefinition]
  ) throws -> Transcript {
    var instructionTexts = instructions.map { [$0] } ?? []
    var entries: [Transcript.Entry] = []
    var callNames: [String: String] = [:]
    let items = history.map { ($0, "previous_response_id") } + input.enumerated().map { ($1, "input[\($0)]") }
    for (item, path) in items {
      switch item["type"]?.stringValue {
      case "message":
        let role = item["role"]?.stringValue ?? "user"
        let text = item["content"]?.elements.compactMap { $0["text"]?.stringValue }.joined(separator: "\n") ?? ""
        switch role {
        case "system", "developer":
          guard entries.isEmpty else {
            throw APIError.invalid(
              "'\(path)': \(role) messages must come before the conversation (or be the request's 'instructions')",
              param: path)
          }
          instructionTexts.append(text)
        case "assistant":
          entries.append(.response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: text))])))
        default:
          entries.append(.prompt(Transcript.Prompt(segments: [.text(.init(content: text))])))
        }
      case "function_call":
        let callID = item["call_id"]?.stringValue ?? ""
        let name = item["name"]?.stringValue ?? ""
        let arguments = try GeneratedContent(json: item["arguments"]?.stringValue ?? "{}")
        callNames[callID] = name
        let call = Transcript.ToolCall(id: callID, toolName: name, arguments: arguments)
        if case .toolCalls(let calls)? = entries.last {
          entries[entries.count - 1] = .toolCalls(Transcript.ToolCalls(Array(calls) + [call]))
        } else {
          entries.append(.toolCalls(Transcript.ToolCalls([call])))
        }
      case "function_call_output":
        let callID = item["call_id"]?.stringValue ?? ""
        guard let name = callNames[callID] else {
          throw APIError.invalid(
            "'\(path).call_id' '\(callID)' answers no function_call of the conversation", param: "\(path).call_id")
        }
        let output = item["output"]?.stringValue ?? ""
        entries.append(
          .toolOutput(Transcript.ToolOutput(id: callID, toolName: name, segments: [.text(.init(content: output))])))
      default:
        continue  // reasoning: earlier thinking is not rendered
      }
    }
    return try ServedTranscript.make(
      entries, instructions: instructionTexts, tools: tools,
      refusal: APIError.invalid(
        "the input must end with a user message or a function_call_output (the model answers it)", param: "input"))
  }
}
