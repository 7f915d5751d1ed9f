import Foundation
import FoundationModels

/// The body of an OpenAI chat-completions request for one executor request: the transcript as
/// messages, the enabled tools, `response_format` for a schema, sampling and `tool_choice` from
/// the generation options, and streaming with usage.
struct ChatCompletionsRequest {
  let model: String
  let request: LanguageModelExecutorGenerationRequest

  /// The JSON body.
  /// - Throws: `LanguageModelError.unsupportedTranscriptContent` for transcript content the
  ///   protocol cannot carry (image attachments: this model does not list `.vision`).
  func body() throws -> Data {
    var body: [String: Any] = [
      "model": model, "messages": try messages(), "stream": true, "stream_options": ["include_usage": true],
    ]
    let options = request.generationOptions
    if let temperature = options.temperature { body["temperature"] = temperature }
    if let maximum = options.maximumResponseTokens { body["max_tokens"] = maximum }
    switch options.samplingMode?.kind {
    case .greedy?:
      body["temperature"] = 0
      body["top_k"] = 1
    case .randomTopK(let k, let seed)?:
      body["top_k"] = k
      if let seed { body["seed"] = seed }
    case .randomProbabilityThreshold(let threshold, let seed)?:
      body["top_p"] = threshold
      if let seed { body["seed"] = seed }
    case nil:
      break
    @unknown default:
      break
    }
    if !request.enabledToolDefinitions.isEmpty {
      body["tools"] = try request.enabledToolDefinitions.map { definition -> [String: Any] in
        [
          "type": "function",
          "function": [
            "name": definition.name, "description": definition.description,
            "parameters": try Self.jsonObject(definition.parameters),
          ] as [String: Any],
        ]
      }
      switch options.toolCallingMode?.kind {
      // `.required` holds until a tool has answered in this turn, or the loop could not end.
      case .required?: body["tool_choice"] = toolsAnsweredThisTurn ? "auto" : "required"
      case .disallowed?: body["tool_choice"] = "none"
      case .allowed?, nil: body["tool_choice"] = "auto"
      }
    }
    if let schema = request.schema {
      body["response_format"] = [
        "type": "json_schema",
        "json_schema": ["name": Self.schemaName(schema), "strict": true, "schema": try Self.jsonObject(schema)]
          as [String: Any],
      ]
    }
    return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
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
  func messages() throws -> [[String: Any]] {
    var messages: [[String: Any]] = []
    var previousWasResponse = false
    let lastPrompt = request.transcript.lastIndex { if case .prompt = $0 { true } else { false } }
    for (index, entry) in zip(request.transcript.indices, request.transcript) {
      var isResponse = false
      switch entry {
      case .instructions(let instructions):
        messages.append(["role": "system", "content": try text(instructions.segments, of: entry)])
      case .prompt(let prompt):
        var content = try text(prompt.segments, of: entry)
        if index == lastPrompt, let schema = request.schema, request.contextOptions.includeSchemaInPrompt != false {
          content += "\n\n" + schema.promptInstruction
        }
        messages.append(["role": "user", "content": content])
      case .response(let response):
        messages.append(["role": "assistant", "content": try text(response.segments, of: entry)])
        isResponse = true
      case .toolCalls(let calls):
        let toolCalls = calls.map { call -> [String: Any] in
          [
            "id": call.id, "type": "function",
            "function": ["name": call.toolName, "arguments": call.arguments.jsonString],
          ]
        }
        if previousWasResponse, var last = messages.popLast() {
          last["tool_calls"] = toolCalls
          messages.append(last)
        } else {
          messages.append(["role": "assistant", "content": NSNull(), "tool_calls": toolCalls])
        }
      case .toolOutput(let output):
        messages.append(["role": "tool", "tool_call_id": output.id, "content": try text(output.segments, of: entry)])
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

  /// A schema as a JSON object (Apple's JSON Schema dialect).
  static func jsonObject(_ schema: GenerationSchema) throws -> Any {
    try JSONSerialization.jsonObject(with: try JSONEncoder().encode(schema))
  }

  /// A `json_schema` name: letters, digits, `_` and `-`, at most 64 (OpenAI's rule).
  static func schemaName(_ schema: GenerationSchema) -> String {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
    let name = String(schema.name.map { allowed.contains($0) ? $0 : "_" }.prefix(64))
    return name.isEmpty ? "response" : name
  }
}
