/// The coded forms of transcript entries; see `Transcript+Codable.swift` for the shape.
struct EntryRecord: Codable {
  var id: String
  var role: String
  var contents: [SegmentRecord]?
  var tools: [ToolDefinitionRecord]?
  var options: OptionsRecord?
  var responseFormat: ResponseFormatRecord?
  var assets: [String]?
  var toolCalls: [ToolCallRecord]?
  var toolName: String?
  var toolCallID: String?

  private init(id: String, role: String, contents: [Transcript.Segment]) {
    self.id = id
    self.role = role
    self.contents = contents.map(SegmentRecord.init)
  }

  init(_ entry: Transcript.Entry) {
    switch entry {
    case .instructions(let instructions):
      self.init(id: instructions.id, role: "instructions", contents: instructions.segments)
      tools = instructions.toolDefinitions.map(ToolDefinitionRecord.init)
    case .prompt(let prompt):
      self.init(id: prompt.id, role: "user", contents: prompt.segments)
      options = OptionsRecord(prompt.options)
      responseFormat = prompt.responseFormat.map(ResponseFormatRecord.init)
    case .response(let response):
      self.init(id: response.id, role: "response", contents: response.segments)
      assets = response.assetIDs
    case .toolCalls(let calls):
      self.init(id: calls.id, role: "response", contents: [])
      toolCalls = calls.map(ToolCallRecord.init)
    case .toolOutput(let output):
      self.init(id: output.id, role: "tool", contents: output.segments)
      toolName = output.toolName
      toolCallID = output.id
    }
  }

  func entry(codingPath: [any CodingKey]) throws -> Transcript.Entry {
    let segments = try (contents ?? []).map { try $0.segment(codingPath: codingPath) }
    switch role {
    case "instructions":
      return .instructions(
        Transcript.Instructions(
          id: id, segments: segments, toolDefinitions: (tools ?? []).map(\.definition)))
    case "user":
      return .prompt(
        Transcript.Prompt(
          id: id, segments: segments, options: options?.options ?? GenerationOptions(),
          responseFormat: responseFormat?.format))
    case "response":
      if let toolCalls, !toolCalls.isEmpty {
        return .toolCalls(
          Transcript.ToolCalls(id: id, try toolCalls.map { try $0.call(codingPath: codingPath) }))
      }
      return .response(Transcript.Response(id: id, assetIDs: assets ?? [], segments: segments))
    case "tool":
      return .toolOutput(
        Transcript.ToolOutput(id: toolCallID ?? id, toolName: toolName ?? "", segments: segments))
    default:
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "Unknown transcript role '\(role)'."))
    }
  }
}

struct SegmentRecord: Codable {
  var type: String
  var id: String
  var text: String?
  var source: String?
  var content: String?

  init(_ segment: Transcript.Segment) {
    switch segment {
    case .text(let text):
      type = "text"
      id = text.id
      self.text = text.content
    case .structure(let structure):
      type = "structure"
      id = structure.id
      source = structure.source
      content = structure.content.jsonString
    }
  }

  func segment(codingPath: [any CodingKey]) throws -> Transcript.Segment {
    switch type {
    case "text":
      return .text(Transcript.TextSegment(id: id, content: text ?? ""))
    case "structure":
      let content = try GeneratedContentRecord.decode(self.content ?? "null", codingPath: codingPath)
      return .structure(Transcript.StructuredSegment(id: id, source: source ?? "", content: content))
    default:
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "Unknown segment type '\(type)'."))
    }
  }
}

/// Generated content travels as a JSON string.
enum GeneratedContentRecord {
  static func decode(_ json: String, codingPath: [any CodingKey]) throws -> GeneratedContent {
    do {
      return try GeneratedContent(json: json)
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "Invalid JSON content: \(error)", underlyingError: error))
    }
  }
}

struct ToolDefinitionRecord: Codable {
  struct Function: Codable {
    var name: String
    var description: String
    var parameters: GenerationSchema
  }
  var type = "function"
  var function: Function

  init(_ definition: Transcript.ToolDefinition) {
    function = Function(
      name: definition.name, description: definition.description, parameters: definition.parameters)
  }

  var definition: Transcript.ToolDefinition {
    Transcript.ToolDefinition(
      name: function.name, description: function.description, parameters: function.parameters)
  }
}

struct ResponseFormatRecord: Codable {
  struct Schema: Codable {
    var name: String
    var schema: GenerationSchema
  }
  var type = "jsonSchema"
  var jsonSchema: Schema

  init(_ format: Transcript.ResponseFormat) {
    jsonSchema = Schema(name: format.name, schema: format.schema)
  }

  var format: Transcript.ResponseFormat {
    Transcript.ResponseFormat(name: jsonSchema.name, schema: jsonSchema.schema)
  }
}

struct ToolCallRecord: Codable {
  var id: String
  var name: String
  var arguments: String

  init(_ call: Transcript.ToolCall) {
    id = call.id
    name = call.toolName
    arguments = call.arguments.jsonString
  }

  func call(codingPath: [any CodingKey]) throws -> Transcript.ToolCall {
    Transcript.ToolCall(
      id: id, toolName: name,
      arguments: try GeneratedContentRecord.decode(arguments, codingPath: codingPath))
  }
}

struct OptionsRecord: Codable {
  struct Sampling: Codable {
    var type: String
    var k: Int?
    var probabilityThreshold: Double?
    var seed: UInt64?
  }
  var sampling: Sampling?
  var temperature: Double?
  var maximumResponseTokens: Int?

  init(_ options: GenerationOptions) {
    temperature = options.temperature
    maximumResponseTokens = options.maximumResponseTokens
    switch options.sampling?.kind {
    case .greedy?:
      sampling = Sampling(type: "greedy")
    case .topK(let k, let seed)?:
      sampling = Sampling(type: "topK", k: k, seed: seed)
    case .topP(let threshold, let seed)?:
      sampling = Sampling(type: "topP", probabilityThreshold: threshold, seed: seed)
    case nil:
      sampling = nil
    }
  }

  var options: GenerationOptions {
    var mode: GenerationOptions.SamplingMode?
    switch sampling?.type {
    case "greedy"?: mode = .greedy
    case "topK"?: mode = .random(top: sampling?.k ?? 1, seed: sampling?.seed)
    case "topP"?:
      mode = .random(probabilityThreshold: sampling?.probabilityThreshold ?? 1, seed: sampling?.seed)
    default: mode = nil
    }
    return GenerationOptions(
      sampling: mode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
  }
}
