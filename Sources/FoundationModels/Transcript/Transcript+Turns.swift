import Foundation

extension Transcript {
  /// Instructions, and the tools the session offers.
  ///
  /// Matches FoundationModels `Transcript.Instructions`.
  public struct Instructions: Sendable, Identifiable, Equatable {
    /// Matches FoundationModels `Transcript.Instructions.id`.
    public var id: String
    /// The instructions' content.
    public var segments: [Segment]
    /// The tools available in the session.
    public var toolDefinitions: [ToolDefinition]

    /// Creates an instructions entry.
    ///
    /// Matches FoundationModels `Transcript.Instructions.init(id:segments:toolDefinitions:)`.
    public init(
      id: String = UUID().uuidString, segments: [Segment], toolDefinitions: [ToolDefinition]
    ) {
      self.id = id
      self.segments = segments
      self.toolDefinitions = toolDefinitions
    }
  }

  /// A prompt, with the options and response format it was sent with.
  ///
  /// Matches FoundationModels `Transcript.Prompt`.
  public struct Prompt: Sendable, Identifiable, Equatable {
    /// Matches FoundationModels `Transcript.Prompt.id`.
    public var id: String
    /// The prompt's content.
    public var segments: [Segment]
    /// The generation options of the request.
    public var options: GenerationOptions
    /// The requested structure of the response; `nil` for text.
    public var responseFormat: ResponseFormat?

    /// Creates a prompt entry.
    ///
    /// Matches FoundationModels `Transcript.Prompt.init(id:segments:options:responseFormat:)`.
    public init(
      id: String = UUID().uuidString, segments: [Segment],
      options: GenerationOptions = GenerationOptions(), responseFormat: ResponseFormat? = nil
    ) {
      self.id = id
      self.segments = segments
      self.options = options
      self.responseFormat = responseFormat
    }
  }

  /// A response from the model.
  ///
  /// Matches FoundationModels `Transcript.Response`.
  public struct Response: Sendable, Identifiable, Equatable {
    /// Matches FoundationModels `Transcript.Response.id`.
    public var id: String
    /// Identifiers of the model assets that produced the response.
    public var assetIDs: [String]
    /// The response's content.
    public var segments: [Segment]

    /// Creates a response entry.
    ///
    /// Matches FoundationModels `Transcript.Response.init(id:assetIDs:segments:)`.
    public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Segment]) {
      self.id = id
      self.assetIDs = assetIDs
      self.segments = segments
    }
  }

  /// The structure a prompt asked for.
  ///
  /// Matches FoundationModels `Transcript.ResponseFormat`.
  public struct ResponseFormat: Sendable, Equatable {
    /// The name of the type or schema.
    ///
    /// Matches FoundationModels `Transcript.ResponseFormat.name`.
    public let name: String
    /// The schema of the response.
    let schema: GenerationSchema

    /// Creates a response format from a schema; its name is the schema's title.
    ///
    /// Matches FoundationModels `Transcript.ResponseFormat.init(schema:)`.
    public init(schema: GenerationSchema) {
      self.init(name: schema.root.definitionName ?? "GeneratedContent", schema: schema)
    }

    /// Creates a response format for a generable type.
    ///
    /// Matches FoundationModels `Transcript.ResponseFormat.init(type:)`.
    public init<Content: Generable>(type: Content.Type) {
      self.init(name: SchemaComposer.name(of: type), schema: type.generationSchema)
    }

    init(name: String, schema: GenerationSchema) {
      self.name = name
      self.schema = schema
    }

    public static func == (lhs: ResponseFormat, rhs: ResponseFormat) -> Bool {
      lhs.name == rhs.name && lhs.schema.isEquivalent(to: rhs.schema)
    }
  }

  /// A tool's name, description and parameter schema, as offered to the model.
  ///
  /// Matches FoundationModels `Transcript.ToolDefinition`.
  public struct ToolDefinition: Sendable, Equatable {
    /// The tool's name.
    public var name: String
    /// When and how to use the tool.
    public var description: String
    /// The schema of the tool's arguments (not public in 26.x).
    var parameters: GenerationSchema

    /// Creates a tool definition.
    ///
    /// Matches FoundationModels `Transcript.ToolDefinition.init(name:description:parameters:)`.
    public init(name: String, description: String, parameters: GenerationSchema) {
      self.name = name
      self.description = description
      self.parameters = parameters
    }

    /// Creates the definition of a tool.
    ///
    /// Matches FoundationModels `Transcript.ToolDefinition.init(tool:)`.
    public init(tool: some Tool) {
      self.init(name: tool.name, description: tool.description, parameters: tool.parameters)
    }

    public static func == (lhs: ToolDefinition, rhs: ToolDefinition) -> Bool {
      lhs.name == rhs.name && lhs.description == rhs.description
        && lhs.parameters.isEquivalent(to: rhs.parameters)
    }
  }
}

extension GenerationSchema {
  /// Whether two schemas describe the same structure (definitions compared by name).
  func isEquivalent(to other: GenerationSchema) -> Bool {
    root == other.root && definitions == other.definitions
  }
}
