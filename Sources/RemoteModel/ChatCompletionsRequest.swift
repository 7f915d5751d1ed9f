import Foundation
import FoundationModels
import JSON

/// The body of an OpenAI chat-completions request for one executor request: the transcript as
/// messages, the enabled tools, `response_format` for a schema, sampling and `tool_choice` from
/// the generation options, `reasoning_effort` from the reasoning level, and streaming with usage.
struct ChatCompletionsRequest {
  let model: String
  let request: LanguageModelExecutorGenerationRequest

  /// The JSON body.
  /// - Throws: `LanguageModelError.unsupportedTranscriptContent` for transcript content the
  ///   protocol cannot carry (image attachments: this model does not list `.vision`).
  func body() throws -> Data {
    Data(try json().compactText.utf8)
  }

  /// The body as a JSON value.
  func json() throws -> JSONValue {
    var body: [JSONValue.Member] = []
    // Sets a member, replacing an earlier value of it: greedy sampling's temperature replaces
    // the options' own, and a member written twice would be read differently by each server.
    func set(_ key: String, _ value: JSONValue) {
      if let index = body.firstIndex(where: { $0.key == key }) {
        body[index].value = value
      } else {
        body.append(JSONValue.Member(key: key, value: value))
      }
    }
    set("model", .string(model))
    set("messages", .array(try messages()))
    set("stream", .bool(true))
    set("stream_options", .object(["include_usage": .bool(true)]))
    let options = request.generationOptions
    if let temperature = options.temperature { set("temperature", try .number(temperature, name: "temperature")) }
    if let maximum = options.maximumResponseTokens { set("max_tokens", .integer(maximum)) }
    switch options.samplingMode?.kind {
    case .greedy?:
      set("temperature", .integer(0))
      set("top_k", .integer(1))
    case .randomTopK(let k, let seed)?:
      set("top_k", .integer(k))
      if let seed { set("seed", .integer(seed)) }
    case .randomProbabilityThreshold(let threshold, let seed)?:
      set("top_p", try .number(threshold, name: "the probability threshold"))
      if let seed { set("seed", .integer(seed)) }
    case nil:
      break
    @unknown default:
      break
    }
    if let level = request.contextOptions.reasoningLevel {
      set("reasoning_effort", .string(try Self.reasoningEffort(level)))
    }
    if !request.enabledToolDefinitions.isEmpty {
      set(
        "tools",
        .array(
          try request.enabledToolDefinitions.map { definition in
            .object([
              "type": .string("function"),
              "function": .object([
                "name": .string(definition.name), "description": .string(definition.description),
                "parameters": try Self.json(definition.parameters),
                // As `response_format`'s schema: a server that checks arguments only for strict
                // tools (vLLM) then constrains them to the schema too.
                "strict": .bool(true),
              ]),
            ])
          }))
      switch options.toolCallingMode?.kind {
      // `.required` holds until a tool has answered in this turn, or the loop could not end.
      case .required?: set("tool_choice", .string(toolsAnsweredThisTurn ? "auto" : "required"))
      case .disallowed?: set("tool_choice", .string("none"))
      case .allowed?, nil: set("tool_choice", .string("auto"))
      }
    }
    if let schema = request.schema {
      set(
        "response_format",
        .object([
          "type": .string("json_schema"),
          "json_schema": .object([
            "name": .string(Self.schemaName(schema)), "strict": .bool(true), "schema": try Self.json(schema),
          ]),
        ]))
    }
    return .object(body)
  }

  /// OpenAI's `reasoning_effort` for a reasoning level.
  ///
  /// `light` is `"low"`, `moderate` is `"medium"` and `deep` is `"high"`: OpenAI's three
  /// levels, which vLLM and llama-server also take. A `custom` level is sent as it is written,
  /// for a server's own values (`"minimal"`, `"none"`, `"xhigh"`); the server refuses one it does
  /// not know, and that refusal is the request's error.
  /// - Throws: `LanguageModelError.unsupportedCapability` for a level this version does not know.
  static func reasoningEffort(_ level: ContextOptions.ReasoningLevel) throws -> String {
    switch level {
    case .light: return "low"
    case .moderate: return "medium"
    case .deep: return "high"
    case .custom(let value): return value
    @unknown default:
      throw LanguageModelError.unsupportedCapability(
        .init(capability: .reasoning, debugDescription: "No reasoning_effort stands for the reasoning level \(level)."))
    }
  }

  /// Whether the request asks for a tool call (`tool_choice: "required"`).
  var requiresToolCall: Bool {
    !request.enabledToolDefinitions.isEmpty && request.generationOptions.toolCallingMode?.kind == .required
      && !toolsAnsweredThisTurn
  }

  /// Whether the transcript has tool outputs after its last prompt.
  var toolsAnsweredThisTurn: Bool {
    request.transcript.reversed().prefix { if case .prompt = $0 { false } else { true } }
      .contains { if case .toolOutput = $0 { true } else { false } }
  }

  /// The transcript as chat messages. A response followed by tool calls is one assistant
  /// message; reasoning is not sent back (servers do not take it as input).
  ///
  /// With a schema and `includeSchemaInPrompt` (true unless set false), the last prompt asks
  /// for JSON of the schema in the words a local model's prompt does: servers constrain the
  /// output to `response_format` but do not show it to the model (llama-server, vLLM, `fm serve`).
  func messages() throws -> [JSONValue] {
    var messages: [JSONValue] = []
    var previousWasResponse = false
    let lastPrompt = request.transcript.lastIndex { if case .prompt = $0 { true } else { false } }
    for (index, entry) in zip(request.transcript.indices, request.transcript) {
      var isResponse = false
      switch entry {
      case .instructions(let instructions):
        messages.append(
          JSONValue.object(["role": .string("system"), "content": .string(try text(instructions.segments, of: entry))]))
      case .prompt(let prompt):
        var content = try text(prompt.segments, of: entry)
        if index == lastPrompt, let schema = request.schema, request.contextOptions.includeSchemaInPrompt != false {
          content += "\n\n" + schema.promptInstruction
        }
        messages.append(JSONValue.object(["role": .string("user"), "content": .string(content)]))
      case .response(let response):
        messages.append(
          JSONValue.object(["role": .string("assistant"), "content": .string(try text(response.segments, of: entry))]))
        isResponse = true
      case .toolCalls(let calls):
        let toolCalls = JSONValue.array(
          calls.map { call in
            .object([
              "id": .string(call.id), "type": .string("function"),
              "function": .object(["name": .string(call.toolName), "arguments": .string(call.arguments.jsonString)]),
            ])
          })
        if previousWasResponse, case .object(var last)? = messages.popLast() {
          last.append(JSONValue.Member(key: "tool_calls", value: toolCalls))
          messages.append(.object(last))
        } else {
          messages.append(JSONValue.object(["role": .string("assistant"), "content": .null, "tool_calls": toolCalls]))
        }
      case .toolOutput(let output):
        messages.append(
          JSONValue.object([
            "role": .string("tool"), "tool_call_id": .string(output.id),
            "content": .string(try text(output.segments, of: entry)),
          ]))
      case .reasoning:
        break
      @unknown default:
        break
      }
      previousWasResponse = isResponse
    }
    return messages
  }

  /// The text of `segments`; structured segments as their JSON.
  private func text(_ segments: [Transcript.Segment], of entry: Transcript.Entry) throws -> String {
    try segments.map { segment -> String in
      switch segment {
      case .text(let text): return text.content
      case .structure(let structure): return structure.content.jsonString
      case .attachment:
        throw LanguageModelError.unsupportedTranscriptContent(
          .init(unsupportedContent: [entry], debugDescription: "This server model does not take image attachments."))
      default: return segment.description
      }
    }.joined(separator: "\n")
  }

  /// A schema as a JSON object (Apple's JSON Schema dialect), its members sorted by key.
  static func json(_ schema: GenerationSchema) throws -> JSONValue {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try JSONValue(parsing: try encoder.encode(schema))
  }

  /// A `json_schema` name: letters, digits, `_` and `-`, at most 64 (OpenAI's rule).
  static func schemaName(_ schema: GenerationSchema) -> String {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
    let name = String(schema.name.map { allowed.contains($0) ? $0 : "_" }.prefix(64))
    return name.isEmpty ? "response" : name
  }
}
