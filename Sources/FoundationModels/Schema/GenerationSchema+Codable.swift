extension GenerationSchema: Codable {
  /// Reads a schema in Apple's JSON Schema dialect (see `SchemaJSON`).
  ///
  /// Matches FoundationModels `GenerationSchema.init(from:)`.
  /// - Throws: `DecodingError.dataCorrupted` naming what is missing or unsupported.
  public init(from decoder: any Decoder) throws {
    let json = try CodableContent(from: decoder).content
    do {
      let (root, definitions) = try SchemaJSON.decode(json)
      self.init(root: root, definitions: definitions)
    } catch let failure as SchemaJSON.DecodingFailure {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "Invalid generation schema: \(failure)"))
    }
  }

  /// Writes the schema in Apple's JSON Schema dialect (see `SchemaJSON`); a schema made from
  /// plain JSON Schema (`init(jsonSchema:)`) as the JSON Schema it was made from.
  ///
  /// Matches FoundationModels `GenerationSchema.encode(to:)`.
  public func encode(to encoder: any Encoder) throws {
    switch form {
    case .dialect(let root, let definitions):
      try CodableContent(SchemaJSON.content(root: root, definitions: definitions)).encode(to: encoder)
    case .jsonSchema(let text):
      try CodableContent(try GeneratedContent(json: text)).encode(to: encoder)
    }
  }
}
