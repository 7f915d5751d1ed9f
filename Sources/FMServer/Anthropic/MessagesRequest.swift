import Foundation
import FoundationModels
import JSON

/// An Anthropic `POST /v1/messages` (or `/v1/messages/count_tokens`) body, decoded and checked:
/// every parameter is honoured or refused with a 400 that names it.
struct MessagesRequest: Sendable {
  var model: String
  var stream: Bool
  var turn: TurnRequest

  /// Decodes `body`; `counting` reads a `count_tokens` body (no `max_tokens`, sampling or
  /// `stream`).
  /// - Throws: `APIError` for malformed JSON, unknown or unsupported parameters and bad values.
  init(body: [UInt8], counting: Bool = false) throws {
    var fields = try JSONFields(ChatCompletionRequest.parse(body), path: "")
    guard let model = try fields.string("model") else { throw APIError.invalid("'model' is required", param: "model") }
    self.model = model
    var options = GenerationOptions()
    var stop: [String] = []
    if counting {
      stream = false
    } else {
      stream = try fields.bool("stream") ?? false
      // Required, as Anthropic's API has it.
      guard let maximum = try SamplingFields.maximumTokens(&fields, "max_tokens") else {
        throw APIError.invalid("'max_tokens' is required", param: "max_tokens")
      }
      options = try SamplingFields.options(&fields, seed: false)
      options.maximumResponseTokens = maximum
      stop = try Self.stopSequences(&fields)
      if var metadata = try fields.object("metadata") {
        // An opaque id for Anthropic's abuse detection; nothing here acts on it.
        _ = try metadata.string("user_id")
        try metadata.rejectUnknown()
      }
      if let tier = try fields.string("service_tier"), tier != "auto", tier != "standard_only" {
        throw APIError.unsupported("service_tier", "this server has one tier")
      }
    }
    let tools = try Self.tools(&fields)
    let choice = try Self.toolChoice(&fields, tools: tools)
    options.toolCallingMode = choice.mode
    let reasoningLevel = try Self.thinking(&fields, maximum: options.maximumResponseTokens)
    let system = try Self.system(&fields)
    guard let messages = try fields.array("messages") else {
      throw APIError.invalid("'messages' is required", param: "messages")
    }
    let transcript = try AnthropicMessages.transcript(messages, system: system, tools: tools)
    try fields.rejectUnknown()
    turn = TurnRequest(
      transcript: transcript, enabledTools: tools, forcedTool: choice.forced, oneToolCall: choice.oneCall, schema: nil,
      options: options, stop: stop,
      reasoningLevel: reasoningLevel)
  }

  /// `system`: a string, or text blocks joined.
  private static func system(_ fields: inout JSONFields) throws -> String? {
    guard let value = fields.value("system") else { return nil }
    if case .string(let text) = value { return text }
    return try AnthropicMessages.textBlocks(value, path: "system")
  }

  /// `tools`: `{name, description, input_schema}` (with `cache_control`, which the automatic
  /// prefix cache makes moot); server tools are refused.
  private static func tools(_ fields: inout JSONFields) throws -> [Transcript.ToolDefinition] {
    guard let tools = try fields.array("tools") else { return [] }
    var names = Set<String>()
    return try tools.enumerated().map { index, value in
      var tool = try JSONFields(value, path: "tools[\(index)]")
      if let type = try tool.string("type"), type != "custom" {
        throw APIError.unsupported(tool.name("type"), "tools of type '\(type)': this server has custom tools only")
      }
      guard let name = try tool.string("name"), !name.isEmpty, names.insert(name).inserted else {
        throw APIError.invalid("'\(tool.name("name"))' is required, and names must differ", param: tool.name("name"))
      }
      let description = try tool.string("description") ?? ""
      guard let inputSchema = tool.value("input_schema") else {
        throw APIError.invalid("'\(tool.name("input_schema"))' is required", param: tool.name("input_schema"))
      }
      let schema = try ChatCompletionRequest.schema(inputSchema, param: tool.name("input_schema"))
      _ = tool.value("cache_control")
      try tool.rejectUnknown()
      return Transcript.ToolDefinition(name: name, description: description, parameters: schema)
    }
  }

  /// `tool_choice`: `{"type": "auto" | "any" | "none" | "tool", "name"}`, and
  /// `disable_parallel_tool_use` for one call at most.
  private static func toolChoice(_ fields: inout JSONFields, tools: [Transcript.ToolDefinition]) throws -> (
    forced: String?, mode: GenerationOptions.ToolCallingMode?, oneCall: Bool
  ) {
    guard var choice = try fields.object("tool_choice") else { return (nil, tools.isEmpty ? nil : .allowed, false) }
    let oneCall = try choice.bool("disable_parallel_tool_use") ?? false
    var forced: String?
    let mode: GenerationOptions.ToolCallingMode
    switch try choice.string("type") {
    case "auto"?: mode = .allowed
    case "none"?: mode = .disallowed
    case "any"?: mode = .required
    case "tool"?:
      guard let name = try choice.string("name") else {
        throw APIError.invalid("'tool_choice.name' is required", param: "tool_choice.name")
      }
      forced = try TurnRequest.forcedTool(name, in: tools, param: "tool_choice.name")
      mode = .required
    default:
      throw APIError.invalid("'tool_choice.type' must be auto, any, tool or none", param: "tool_choice.type")
    }
    try choice.rejectUnknown()
    return (forced, try TurnRequest.callingMode(mode, hasTools: !tools.isEmpty), oneCall)
  }

  /// `thinking`: `{"type":"disabled"}` turns a thinking model's thinking off;
  /// `{"type":"enabled","budget_tokens":N}` turns it on, N (at least 1,024 and less than
  /// `max_tokens`, as Anthropic's API requires) choosing how deep: up to 4,096 light, up to
  /// 16,384 moderate, past that deep. `max_tokens` bounds the thinking and the answer together,
  /// as Anthropic's does. A model that does not think refuses either (400).
  private static func thinking(_ fields: inout JSONFields, maximum: Int?) throws -> ContextOptions.ReasoningLevel? {
    guard var thinking = try fields.object("thinking") else { return nil }
    let level: ContextOptions.ReasoningLevel
    switch try thinking.string("type") {
    case "disabled"?:
      level = .custom("off")
    case "enabled"?:
      guard let budget = try thinking.integer("budget_tokens"), budget >= 1024 else {
        throw APIError.invalid("'thinking.budget_tokens' must be at least 1024", param: "thinking.budget_tokens")
      }
      if let maximum, budget >= maximum {
        throw APIError.invalid(
          "'thinking.budget_tokens' must be less than 'max_tokens'", param: "thinking.budget_tokens")
      }
      level = budget <= 4096 ? .light : budget <= 16384 ? .moderate : .deep
    default:
      throw APIError.invalid("'thinking.type' must be enabled or disabled", param: "thinking.type")
    }
    try thinking.rejectUnknown()
    return level
  }

  private static func stopSequences(_ fields: inout JSONFields) throws -> [String] {
    guard let values = try fields.array("stop_sequences") else { return [] }
    return try values.enumerated().map { index, value in
      guard case .string(let text) = value, !text.isEmpty else {
        throw APIError.invalid("'stop_sequences[\(index)]' must be a non-empty string", param: "stop_sequences")
      }
      return text
    }
  }
}
