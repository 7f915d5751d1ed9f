import Foundation

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
  var metadata: MetadataRecord?
  var contextOptions: ContextOptionsRecord?
  /// A reasoning entry's signature, base64.
  var signature: String?

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
      contextOptions = ContextOptionsRecord(prompt.contextOptions)
      metadata = MetadataRecord.optional(prompt.metadata)
    case .response(let response):
      self.init(id: response.id, role: "response", contents: response.segments)
      assets = response.assetIDs
      metadata = MetadataRecord.optional(response.storedMetadata)
    case .reasoning(let reasoning):
      self.init(id: reasoning.id, role: "reasoning", contents: reasoning.segments)
      signature = reasoning.signature?.base64EncodedString()
      metadata = MetadataRecord.optional(reasoning.metadata)
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
          id: id, metadata: metadata?.values ?? [:], segments: segments,
          options: options?.options ?? GenerationOptions(),
          responseFormat: responseFormat?.format, contextOptions: contextOptions?.options ?? ContextOptions()))
    case "response":
      if let toolCalls, !toolCalls.isEmpty {
        return .toolCalls(
          Transcript.ToolCalls(id: id, try toolCalls.map { try $0.call(codingPath: codingPath) }))
      }
      var response = Transcript.Response(id: id, assetIDs: assets ?? [], segments: segments)
      response.storedMetadata = metadata?.values ?? [:]
      return .response(response)
    case "reasoning":
      return .reasoning(
        Transcript.Reasoning(
          id: id, metadata: metadata?.values ?? [:], segments: segments,
          signature: signature.flatMap { Data(base64Encoded: $0) }))
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
  /// Attachments: the image's file URL or bytes (base64), media type, orientation and label.
  var url: String?
  var data: String?
  var contentType: String?
  var orientation: UInt32?
  var label: String?
  /// Custom segments: the app type's name.
  var customType: String?

  init(_ segment: Transcript.Segment) {
    id = segment.id
    switch segment {
    case .text(let text):
      type = "text"
      self.text = text.content
    case .structure(let structure):
      type = "structure"
      source = structure.schemaName
      content = structure.content.jsonString
    case .attachment(let attachment):
      type = "attachment"
      label = attachment.label
      switch attachment.content {
      case .image(let image):
        url = image.url?.absoluteString
        data = image.data?.base64EncodedString()
        contentType = image.contentType
        orientation = image.orientation.rawValue
      }
    case .custom(let custom):
      type = "custom"
      text = custom.description
      if let decoded = custom as? DecodedCustomSegment {
        customType = decoded.typeName
        content = decoded.content
      } else {
        customType = String(reflecting: Swift.type(of: custom))
        content = CustomSegmentCoding.json(of: custom.content)
      }
    }
  }

  func segment(codingPath: [any CodingKey]) throws -> Transcript.Segment {
    switch type {
    case "text":
      return .text(Transcript.TextSegment(id: id, content: text ?? ""))
    case "structure":
      let content = try GeneratedContentRecord.decode(self.content ?? "null", codingPath: codingPath)
      return .structure(Transcript.StructuredSegment(id: id, schemaName: source ?? "", content: content))
    case "attachment":
      let orientation = orientation.flatMap(CGImagePropertyOrientation.init(rawValue:))
      let image: Transcript.ImageAttachment
      if let url = url.flatMap(URL.init(string:)) {
        image = Transcript.ImageAttachment(imageURL: url, orientation: orientation)
      } else if let bytes = data.flatMap({ Data(base64Encoded: $0) }) {
        image = Transcript.ImageAttachment(data: bytes, contentType: contentType, orientation: orientation)
      } else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: codingPath, debugDescription: "An attachment segment has neither a URL nor data."))
      }
      return .attachment(Transcript.AttachmentSegment(id: id, content: .image(image), label: label))
    case "custom":
      return .custom(
        DecodedCustomSegment(id: id, typeName: customType ?? "", content: content ?? "null", text: text ?? ""))
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
  var metadata: MetadataRecord?

  init(_ call: Transcript.ToolCall) {
    id = call.id
    name = call.toolName
    arguments = call.arguments.jsonString
    metadata = MetadataRecord.optional(call.metadata)
  }

  func call(codingPath: [any CodingKey]) throws -> Transcript.ToolCall {
    Transcript.ToolCall(
      id: id, metadata: metadata?.values ?? [:], toolName: name,
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
    switch options.samplingMode?.kind {
    case .greedy?:
      sampling = Sampling(type: "greedy")
    case .randomTopK(let k, let seed)?:
      sampling = Sampling(type: "topK", k: k, seed: seed)
    case .randomProbabilityThreshold(let threshold, let seed)?:
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
      samplingMode: mode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
  }
}
