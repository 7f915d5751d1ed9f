import Foundation
import FoundationModels
import JSON

/// A `POST /v1/chat/completions` body, decoded and checked: every parameter is honoured or
/// refused with a 400 that names it.
struct ChatCompletionRequest: Sendable {
  var model: String
  var transcript: Transcript
  /// The request's tools, all of them shown in the prompt (`TurnRequest.enabledTools`).
  var enabledTools: [Transcript.ToolDefinition]
  /// The tool a named `tool_choice` makes the model call.
  var forcedTool: String?
  /// `parallel_tool_calls: false`: one call at most.
  var oneToolCall: Bool
  var schema: GenerationSchema?
  var options: GenerationOptions
  var stream: Bool
  var includeUsage: Bool
  var stop: [String]
  /// `chat_template_kwargs`: the chat template's own variables, as llama-server takes them.
  var templateVariables: JSONValue?
  /// `reasoning_effort`, for a model that thinks.
  var reasoningLevel: ContextOptions.ReasoningLevel?

  /// Decodes `body`.
  /// - Throws: `APIError` for malformed JSON, unknown or unsupported parameters and bad values.
  init(body: [UInt8]) throws {
    var fields = try JSONFields(Self.parse(body), path: "")
    guard let model = try fields.string("model") else { throw APIError.invalid("'model' is required", param: "model") }
    self.model = model
    stream = try fields.bool("stream") ?? false
    includeUsage = try Self.includesUsage(&fields, stream: stream)
    if let n = try fields.integer("n"), n != 1 {
      throw APIError.unsupported("n", "this server generates one choice per request (n must be 1)")
    }
    for penalty in ["presence_penalty", "frequency_penalty"] {
      if let value = try fields.number(penalty), value != 0 {
        throw APIError.unsupported(penalty, "the sampler has no repetition penalties (only 0 is accepted)")
      }
    }
    if try fields.bool("logprobs") == true {
      throw APIError.unsupported("logprobs", "log probabilities are not reported")
    }
    if fields.has("top_logprobs"), fields.value("top_logprobs") != nil {
      throw APIError.unsupported("top_logprobs", "log probabilities are not reported")
    }
    oneToolCall = try fields.bool("parallel_tool_calls") == false
    enabledTools = try Self.tools(&fields)
    forcedTool = try Self.forcedTool(&fields, enabledTools)
    let toolChoice = try Self.toolChoiceMode(&fields, hasTools: !enabledTools.isEmpty)
    schema = try Self.responseFormat(&fields)
    stop = try Self.stopSequences(&fields)
    if !stop.isEmpty, schema != nil {
      throw APIError.unsupported("stop", "stop sequences would cut JSON output short; use one or the other")
    }
    options = try SamplingFields.options(&fields)
    let maxTokens = try SamplingFields.maximumTokens(&fields, "max_tokens")
    let maxCompletionTokens = try SamplingFields.maximumTokens(&fields, "max_completion_tokens")
    if let maxTokens, let maxCompletionTokens, maxTokens != maxCompletionTokens {
      throw APIError.invalid("'max_tokens' and 'max_completion_tokens' differ; give one", param: "max_tokens")
    }
    options.maximumResponseTokens = maxCompletionTokens ?? maxTokens
    options.toolCallingMode = toolChoice
    guard let messages = try fields.array("messages") else {
      throw APIError.invalid("'messages' is required", param: "messages")
    }
    transcript = try ChatMessages.transcript(messages, tools: enabledTools)
    templateVariables = try Self.templateVariables(&fields)
    reasoningLevel = try Self.reasoningLevel(&fields)
    try fields.rejectUnknown()
  }

  /// The turn the request asks for.
  var turn: TurnRequest {
    TurnRequest(
      transcript: transcript, enabledTools: enabledTools, forcedTool: forcedTool, oneToolCall: oneToolCall,
      schema: schema, options: options, stop: stop,
      templateVariables: templateVariables, reasoningLevel: reasoningLevel)
  }

  /// `reasoning_effort` as a reasoning level: `none` turns thinking off, `minimal` and `low` are
  /// light, `medium` moderate, `high` deep. A model that does not think refuses any (400).
  static func reasoningLevel(_ fields: inout JSONFields) throws -> ContextOptions.ReasoningLevel? {
    try fields.string("reasoning_effort").map { try reasoningLevel(effort: $0, param: "reasoning_effort") }
  }

  /// The reasoning level of an effort named in the member `param`.
  static func reasoningLevel(effort: String, param: String) throws -> ContextOptions.ReasoningLevel {
    switch effort {
    case "none": return .custom("off")
    case "minimal", "low": return .light
    case "medium": return .moderate
    case "high": return .deep
    default:
      throw APIError.invalid("'\(param)' must be none, minimal, low, medium or high, not '\(effort)'", param: param)
    }
  }

  /// `stream_options.include_usage`; `stream_options` is only for a streamed request.
  static func includesUsage(_ fields: inout JSONFields, stream: Bool) throws -> Bool {
    guard var streamOptions = try fields.object("stream_options") else { return false }
    guard stream else {
      throw APIError.invalid("'stream_options' is only allowed with 'stream': true", param: "stream_options")
    }
    let include = try streamOptions.bool("include_usage") ?? false
    try streamOptions.rejectUnknown()
    return include
  }

  /// `chat_template_kwargs`, which must be an object.
  static func templateVariables(_ fields: inout JSONFields) throws -> JSONValue? {
    guard let value = fields.value("chat_template_kwargs"), value != .null else { return nil }
    guard case .object = value else {
      throw APIError.invalid("'chat_template_kwargs' must be an object", param: "chat_template_kwargs")
    }
    return value
  }

  /// The body as JSON.
  static func parse(_ body: [UInt8]) throws -> JSONValue {
    guard !body.isEmpty else { throw APIError.invalid("the request body is empty; send a JSON object", param: nil) }
    do {
      return try JSONValue(parsing: body)
    } catch let error as JSONParseError {
      throw APIError.invalid("the body is not valid JSON: \(error.description)", param: nil, code: "invalid_json")
    } catch {
      throw APIError.invalid("the body is not valid JSON", param: nil, code: "invalid_json")
    }
  }

  static func tools(_ fields: inout JSONFields) throws -> [Transcript.ToolDefinition] {
    guard let tools = try fields.array("tools") else { return [] }
    var names = Set<String>()
    return try tools.enumerated().map { index, value in
      var tool = try JSONFields(value, path: "tools[\(index)]")
      guard try tool.string("type") == "function" else {
        throw APIError.invalid("'\(tool.name("type"))' must be 'function'", param: tool.name("type"))
      }
      guard var function = try tool.object("function"), let name = try function.string("name") else {
        throw APIError.invalid("'\(tool.name("function.name"))' is required", param: tool.name("function"))
      }
      guard !name.isEmpty, names.insert(name).inserted else {
        throw APIError.invalid("tool name '\(name)' is empty or given twice", param: function.name("name"))
      }
      let description = try function.string("description") ?? ""
      _ = try function.bool("strict")  // calls are always constrained to the parameters' schema
      let parameters =
        function.value("parameters")
        ?? .object([
          .init(key: "type", value: .string("object")), .init(key: "properties", value: .object([])),
        ])
      let schema = try Self.schema(parameters, param: function.name("parameters"))
      try function.rejectUnknown()
      try tool.rejectUnknown()
      return Transcript.ToolDefinition(name: name, description: description, parameters: schema)
    }
  }

  /// The tool a named `tool_choice` forces, if any.
  private static func forcedTool(_ fields: inout JSONFields, _ tools: [Transcript.ToolDefinition]) throws -> String? {
    guard case .object = fields.value("tool_choice") else { return nil }
    guard var choice = try fields.object("tool_choice") else { return nil }
    guard try choice.string("type") == "function", var function = try choice.object("function"),
      let name = try function.string("name")
    else {
      throw APIError.invalid(
        "'tool_choice' must be none, auto, required or {\"type\":\"function\",\"function\":{\"name\":…}}",
        param: "tool_choice")
    }
    try function.rejectUnknown()
    try choice.rejectUnknown()
    return try TurnRequest.forcedTool(name, in: tools, param: "tool_choice")
  }

  private static func toolChoiceMode(_ fields: inout JSONFields, hasTools: Bool) throws
    -> GenerationOptions.ToolCallingMode?
  {
    guard let choice = fields.value("tool_choice") else { return hasTools ? .allowed : nil }
    let mode: GenerationOptions.ToolCallingMode
    switch choice {
    case .string("auto"): mode = .allowed
    case .string("none"): mode = .disallowed
    case .string("required"), .object: mode = .required
    default:
      throw APIError.invalid(
        "'tool_choice' must be none, auto, required or {\"type\":\"function\",\"function\":{\"name\":…}}",
        param: "tool_choice")
    }
    return try TurnRequest.callingMode(mode, hasTools: hasTools)
  }

  private static func responseFormat(_ fields: inout JSONFields) throws -> GenerationSchema? {
    guard var format = try fields.object("response_format") else { return nil }
    let type = try format.string("type")
    let schema: GenerationSchema?
    switch type {
    case "text"?:
      schema = nil
    case "json_object"?:
      schema = try Self.schema(
        .object([.init(key: "type", value: .string("object"))]), param: "response_format", open: true)
    case "json_schema"?:
      guard var jsonSchema = try format.object("json_schema") else {
        throw APIError.invalid("'response_format.json_schema' is required", param: "response_format.json_schema")
      }
      guard try jsonSchema.string("name") != nil else {
        throw APIError.invalid("'response_format.json_schema.name' is required", param: jsonSchema.name("name"))
      }
      _ = try jsonSchema.string("description")
      _ = try jsonSchema.bool("strict")  // the output always satisfies the schema
      guard let value = jsonSchema.value("schema") else {
        throw APIError.invalid("'response_format.json_schema.schema' is required", param: jsonSchema.name("schema"))
      }
      schema = try Self.schema(value, param: jsonSchema.name("schema"))
      try jsonSchema.rejectUnknown()
    default:
      throw APIError.invalid(
        "'response_format.type' must be text, json_object or json_schema", param: "response_format.type")
    }
    try format.rejectUnknown()
    return schema
  }

  /// A JSON Schema as a generation schema; `open` also generates undeclared members.
  static func schema(_ value: JSONValue, param: String, open: Bool = false) throws -> GenerationSchema {
    do {
      return try GenerationSchema(jsonSchema: value, generatesUndeclaredProperties: open)
    } catch let error as LanguageModelSession.GenerationError {
      throw APIError.invalid("'\(param)' is not a schema this server can generate: \(error)", param: param)
    }
  }

  static func stopSequences(_ fields: inout JSONFields) throws -> [String] {
    guard let stop = fields.value("stop") else { return [] }
    let texts: [String]
    switch stop {
    case .string(let text): texts = [text]
    case .array(let elements):
      texts = try elements.map { element in
        guard case .string(let text) = element else { throw fields.mistyped("stop", "a string or an array of strings") }
        return text
      }
    default: throw fields.mistyped("stop", "a string or an array of strings")
    }
    guard texts.count <= 4, texts.allSatisfy({ !$0.isEmpty }) else {
      throw APIError.invalid("'stop' takes up to 4 non-empty strings", param: "stop")
    }
    return texts
  }
}
