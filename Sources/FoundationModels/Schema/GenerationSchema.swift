/// A description of the structure the model must generate; guided generation follows it
/// token by token.
///
/// Matches FoundationModels `GenerationSchema`. The `@Generable` macro writes one for each type;
/// ``DynamicGenerationSchema`` builds them at run time. Its `Codable` form is Apple's JSON Schema
/// dialect (see `GenerationSchema+Codable.swift`). Internally it is a ``GenerationSchemaNode`` tree
/// (`root`) and the named types it refers to (`definitions`).
public struct GenerationSchema: Sendable, CustomDebugStringConvertible {
  /// The schema of the generated value.
  var root: GenerationSchemaNode

  /// Named types the root refers to with `.reference(name)`.
  var definitions: SchemaDefinitions

  /// Set when the schema came from plain JSON Schema (`init(jsonSchema:)`); it then decides
  /// both the constraint and the prompt text.
  var plainJSONSchema: PlainJSONSchema?

  init(root: GenerationSchemaNode, definitions: SchemaDefinitions = SchemaDefinitions()) {
    self.root = root
    self.definitions = definitions
  }

  /// Creates the schema of a structure whose properties are generated in the given order.
  ///
  /// Matches FoundationModels `GenerationSchema.init(type:description:properties:)`. Properties
  /// are kept as given; the macro gives them in declaration order. A repeated property name is
  /// kept as is (use ``DynamicGenerationSchema`` for a checked schema).
  public init(type: any Generable.Type, description: String? = nil, properties: [Property]) {
    self.init(
      type: type, description: description, representsNilExplicitly: false, properties: properties)
  }

  /// Creates the schema of a structure, saying whether absent optionals are written as `null`.
  ///
  /// Matches FoundationModels `GenerationSchema.init(type:description:representNilExplicitlyInGeneratedContent:properties:)`
  /// (26.4). The flag changes the generated content, not the JSON form of the schema.
  public init(
    type: any Generable.Type, description: String? = nil,
    representNilExplicitlyInGeneratedContent: Bool, properties: [Property]
  ) {
    self.init(
      type: type, description: description,
      representsNilExplicitly: representNilExplicitlyInGeneratedContent, properties: properties)
  }

  private init(
    type: any Generable.Type, description: String?, representsNilExplicitly: Bool,
    properties: [Property]
  ) {
    let name = SchemaComposer.name(of: type)
    self = SchemaComposer.schema(named: name) {
      var definitions = SchemaDefinitions()
      let nodes = properties.map { property in
        let fragment = property.fragment()
        definitions.merge(fragment.definitions)
        return PropertySchema(
          name: property.name, description: property.description, schema: fragment.node,
          isOptional: property.isOptional)
      }
      let object = ObjectSchema(
        name: name, description: description, properties: nodes,
        representsNilExplicitly: representsNilExplicitly)
      return (.object(object), definitions)
    }
  }

  /// Creates the schema of a string enumeration: the value is one of `choices`.
  ///
  /// Matches FoundationModels `GenerationSchema.init(type:description:anyOf:)` with strings.
  public init(type: any Generable.Type, description: String? = nil, anyOf choices: [String]) {
    let name = SchemaComposer.name(of: type)
    self.init(root: .string(StringSchema(name: name, description: description, choices: choices)))
  }

  /// Creates the schema of a union: the value is one of the given types.
  ///
  /// Matches FoundationModels `GenerationSchema.init(type:description:anyOf:)` with types.
  public init(type: any Generable.Type, description: String? = nil, anyOf types: [any Generable.Type]) {
    let name = SchemaComposer.name(of: type)
    self = SchemaComposer.schema(named: name) {
      var definitions = SchemaDefinitions()
      let choices = types.map { choice in
        let fragment = SchemaComposer.fragment(for: choice)
        definitions.merge(fragment.definitions)
        return fragment.node
      }
      return (.anyOf(UnionSchema(name: name, description: description, choices: choices)), definitions)
    }
  }

  /// The schema's JSON form, for debugging.
  ///
  /// Matches FoundationModels `GenerationSchema.debugDescription`.
  /// The schema's name: the generable type's or the dynamic schema's name, or
  /// `GeneratedContent` for an unnamed schema — what a provider passes as the name of a
  /// structured-output request.
  ///
  /// Matches FoundationModels 27 `GenerationSchema.name` (Apple's later betas).
  public var name: String {
    Transcript.ResponseFormat(schema: self).name
  }

  public var debugDescription: String {
    jsonString
  }

  /// The schema as compact JSON in Apple's dialect: what a prompt shows the model when
  /// `includeSchemaInPrompt` is true, and what `tokenCount(for: schema)` measures.
  var jsonString: String {
    if let plainJSONSchema { return plainJSONSchema.text }
    return SchemaJSON.content(root: root, definitions: definitions).jsonString
  }

  /// Regexes in the schema whose source could not be recovered; not empty means generation
  /// must throw `GenerationError.unsupportedGuide` (the JSON form cannot carry them).
  var unsupportedPatterns: [String] {
    root.unsupportedPatterns + definitions.ordered.flatMap(\.node.unsupportedPatterns)
  }

  /// Whether two schemas describe the same structure (definitions compared by name).
  func isEquivalent(to other: GenerationSchema) -> Bool {
    root == other.root && definitions == other.definitions
  }
}
