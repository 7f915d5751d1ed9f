extension Transcript {
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

    /// Whether the two have the same name and describe the same schema.
    ///
    /// Matches FoundationModels `Transcript.ResponseFormat.==`. Schemas compare by structure, since
    /// `GenerationSchema` itself is not `Equatable`.
    public static func == (lhs: ResponseFormat, rhs: ResponseFormat) -> Bool {
      lhs.name == rhs.name && lhs.schema.isEquivalent(to: rhs.schema)
    }
  }
}
