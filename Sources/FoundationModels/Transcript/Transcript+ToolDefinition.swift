extension Transcript {
  /// A tool's name, description and parameter schema, as offered to the model.
  ///
  /// Matches FoundationModels `Transcript.ToolDefinition`.
  public struct ToolDefinition: Sendable, Equatable {
    /// The tool's name.
    public var name: String
    /// When and how to use the tool.
    public var description: String
    /// The schema of the tool's arguments, for providers that describe tools to their API.
    ///
    /// Matches FoundationModels 27 `Transcript.ToolDefinition.parameters` (public since 27).
    public var parameters: GenerationSchema
    /// The tool's `includesSchemaInInstructions`: whether a model is shown the parameters' schema
    /// (its calls are held to it either way).
    ///
    /// True for a definition made from its parts.
    var includesSchema = true

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
      includesSchema = tool.includesSchemaInInstructions
    }

    /// Whether the two have the same name and describe the same schema.
    ///
    /// Matches FoundationModels `Transcript.ToolDefinition.==`. Schemas compare by structure, since
    /// `GenerationSchema` itself is not `Equatable`.
    public static func == (lhs: ToolDefinition, rhs: ToolDefinition) -> Bool {
      lhs.name == rhs.name && lhs.description == rhs.description
        && lhs.parameters.isEquivalent(to: rhs.parameters)
    }
  }
}
