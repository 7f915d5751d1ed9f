import Foundation
import FoundationModels
import JSON

/// A `POST /v1/responses` body, decoded and checked: every parameter is honoured or refused with
/// a 400 that names it.
///
/// What the response echoes of the request (its tools, tool choice, text format, sampling,
/// metadata) is kept as the client sent it, as OpenAI echoes it.
struct ResponsesRequest: Sendable {
  var model: String
  var stream: Bool
  /// Whether the response is kept for `previous_response_id`, retrieval and deletion.
  var store: Bool
  var previousResponseID: String?
  var instructions: String?
  /// This request's input as items, each with an id (`msg_…` where the client gave none).
  var inputItems: [JSONValue]
  var tools: [Transcript.ToolDefinition]
  /// The tool a named `tool_choice` makes the model call.
  var forcedTool: String?
  /// `parallel_tool_calls: false`: one call at most.
  var oneToolCall: Bool
  var toolCallingMode: GenerationOptions.ToolCallingMode?
  var schema: GenerationSchema?
  var options: GenerationOptions
  var reasoningLevel: ContextOptions.ReasoningLevel?
  /// The members the response object repeats from the request.
  var echo: ResponseEcho

  /// Decodes `body`.
  /// - Throws: `APIError` for malformed JSON, unknown or unsupported parameters and bad values.
  init(body: [UInt8]) throws {
    var fields = try JSONFields(ChatCompletionRequest.parse(body), path: "")
    guard let model = try fields.string("model") else { throw APIError.invalid("'model' is required", param: "model") }
    self.model = model
    stream = try fields.bool("stream") ?? false
    store = try fields.bool("store") ?? true
    previousResponseID = try fields.string("previous_response_id")
    instructions = try fields.string("instructions")
    guard let input = fields.value("input") else { throw APIError.invalid("'input' is required", param: "input") }
    inputItems = try ResponseItems.normalized(input)
    if try fields.bool("background") == true {
      throw APIError.unsupported("background", "responses are generated while the request waits")
    }
    if let truncation = try fields.string("truncation"), truncation != "disabled" {
      throw APIError.unsupported("truncation", "the conversation is never truncated (only 'disabled' is accepted)")
    }
    if let include = try fields.array("include"), !include.isEmpty {
      throw APIError.unsupported("include", "no extra output data is available")
    }
    if let topLogprobs = try fields.integer("top_logprobs"), topLogprobs != 0 {
      throw APIError.unsupported("top_logprobs", "log probabilities are not reported on this endpoint")
    }
    oneToolCall = try fields.bool("parallel_tool_calls") == false
    tools = try Self.tools(&fields)
    let choice = try Self.toolChoice(&fields, tools: tools)
    forcedTool = choice.forced
    toolCallingMode = choice.mode
    let format = try Self.textFormat(&fields)
    schema = format.schema
    options = try SamplingFields.options(&fields, topK: false, seed: false)
    options.maximumResponseTokens = try SamplingFields.maximumTokens(&fields, "max_output_tokens")
    options.toolCallingMode = toolCallingMode
    let reasoning = try Self.reasoning(&fields)
    reasoningLevel = reasoning.level
    let metadata = try Self.metadata(&fields)
    let user = try fields.string("user")
    echo = ResponseEcho(
      tools: fields.value("tools") ?? .array([]), toolChoice: fields.value("tool_choice") ?? .string("auto"),
      text: .object([member("format", format.echo)]), reasoning: reasoning.echo, metadata: metadata, user: user)
    try fields.rejectUnknown()
  }

  /// The turn for this request after the conversation `history` (the items before this
  /// request's input: those of the previous responses it continues).
  func turn(after history: [JSONValue]) throws -> TurnRequest {
    let transcript = try ResponseItems.transcript(
      instructions: instructions, history: history, input: inputItems, tools: tools)
    return TurnRequest(
      transcript: transcript, enabledTools: tools, forcedTool: forcedTool, oneToolCall: oneToolCall, schema: schema,
      options: options,
      reasoningLevel: reasoningLevel)
  }

  /// Function tools: `{"type":"function","name","description","parameters","strict"}`.
  private static func tools(_ fields: inout JSONFields) throws -> [Transcript.ToolDefinition] {
    guard let tools = try fields.array("tools") else { return [] }
    var names = Set<String>()
    return try tools.enumerated().map { index, value in
      var tool = try JSONFields(value, path: "tools[\(index)]")
      let type = try tool.string("type")
      guard type == "function" else {
        throw APIError.unsupported(
          tool.name("type"), "tools of type '\(type ?? "")': this server has function tools only")
      }
      guard let name = try tool.string("name"), !name.isEmpty, names.insert(name).inserted else {
        throw APIError.invalid("'\(tool.name("name"))' is required, and names must differ", param: tool.name("name"))
      }
      let description = try tool.string("description") ?? ""
      _ = try tool.bool("strict")  // calls are always constrained to the parameters' schema
      let parameters =
        tool.value("parameters")
        ?? .object([member("type", .string("object")), member("properties", .object([]))])
      let schema = try ChatCompletionRequest.schema(parameters, param: tool.name("parameters"))
      try tool.rejectUnknown()
      return Transcript.ToolDefinition(name: name, description: description, parameters: schema)
    }
  }

  /// `tool_choice`: `auto`, `none`, `required` or `{"type":"function","name"}`.
  private static func toolChoice(_ fields: inout JSONFields, tools: [Transcript.ToolDefinition]) throws -> (
    forced: String?, mode: GenerationOptions.ToolCallingMode?
  ) {
    let usage = "'tool_choice' must be none, auto, required or {\"type\":\"function\",\"name\":…}"
    var forced: String?
    let mode: GenerationOptions.ToolCallingMode
    switch fields.value("tool_choice") {
    case nil, .string("auto")?: mode = .allowed
    case .string("none")?: mode = .disallowed
    case .string("required")?: mode = .required
    case .object?:
      guard var choice = try fields.object("tool_choice"), try choice.string("type") == "function",
        let name = try choice.string("name")
      else { throw APIError.invalid(usage, param: "tool_choice") }
      try choice.rejectUnknown()
      forced = try TurnRequest.forcedTool(name, in: tools, param: "tool_choice")
      mode = .required
    default:
      throw APIError.invalid(usage, param: "tool_choice")
    }
    return (forced, try TurnRequest.callingMode(mode, hasTools: !tools.isEmpty))
  }

  /// `text.format`: `text`, `json_object` or `json_schema` (`name`, `schema`, `strict`,
  /// `description`); the schema constrains the decoding.
  private static func textFormat(_ fields: inout JSONFields) throws -> (schema: GenerationSchema?, echo: JSONValue) {
    let plain = JSONValue.object([member("type", .string("text"))])
    guard var text = try fields.object("text") else { return (nil, plain) }
    if let verbosity = try text.string("verbosity"), verbosity != "medium" {
      throw APIError.unsupported("text.verbosity", "the model's verbosity cannot be set (only 'medium' is accepted)")
    }
    guard let formatValue = text.value("format") else {
      try text.rejectUnknown()
      return (nil, plain)
    }
    var format = try JSONFields(formatValue, path: "text.format")
    let schema: GenerationSchema?
    switch try format.string("type") {
    case "text"?:
      schema = nil
    case "json_object"?:
      schema = try ChatCompletionRequest.schema(
        .object([member("type", .string("object"))]), param: "text.format", open: true)
    case "json_schema"?:
      guard try format.string("name") != nil else {
        throw APIError.invalid("'text.format.name' is required", param: "text.format.name")
      }
      _ = try format.string("description")
      _ = try format.bool("strict")  // the output always satisfies the schema
      guard let value = format.value("schema") else {
        throw APIError.invalid("'text.format.schema' is required", param: "text.format.schema")
      }
      schema = try ChatCompletionRequest.schema(value, param: "text.format.schema")
    default:
      throw APIError.invalid("'text.format.type' must be text, json_object or json_schema", param: "text.format.type")
    }
    try format.rejectUnknown()
    try text.rejectUnknown()
    return (schema, formatValue)
  }

  /// `reasoning.effort` (as chat completions' `reasoning_effort`); `summary` is refused, for
  /// the server writes no summaries of the model's thinking (it returns the thinking itself).
  private static func reasoning(_ fields: inout JSONFields) throws -> (
    level: ContextOptions.ReasoningLevel?, echo: JSONValue
  ) {
    let none = JSONValue.object([member("effort", .null), member("summary", .null)])
    guard var reasoning = try fields.object("reasoning") else { return (nil, none) }
    if try reasoning.string("summary") != nil {
      throw APIError.unsupported(
        "reasoning.summary", "the thinking is returned as it is (reasoning_text), never summarised")
    }
    if try reasoning.string("generate_summary") != nil {
      throw APIError.unsupported("reasoning.generate_summary", "the thinking is never summarised")
    }
    let effort = try reasoning.string("effort")
    let level = try effort.map { try ChatCompletionRequest.reasoningLevel(effort: $0, param: "reasoning.effort") }
    try reasoning.rejectUnknown()
    return (level, .object([member("effort", .optional(effort)), member("summary", .null)]))
  }

  /// `metadata`: up to 16 string values, echoed in the response.
  private static func metadata(_ fields: inout JSONFields) throws -> JSONValue {
    guard let value = fields.value("metadata") else { return .object([]) }
    guard case .object(let members) = value, members.count <= 16,
      members.allSatisfy({ $0.key.count <= 64 && ($0.value.stringValue?.count ?? 513) <= 512 })
    else {
      throw APIError.invalid(
        "'metadata' must be an object of up to 16 string values (keys up to 64 characters, values up to 512)",
        param: "metadata")
    }
    return value
  }
}

/// The members a response repeats from its request.
struct ResponseEcho: Sendable {
  var tools: JSONValue
  var toolChoice: JSONValue
  var text: JSONValue
  var reasoning: JSONValue
  var metadata: JSONValue
  var user: String?
}
