import GuidedDecoding

/// A description of the structure the model must generate; guided generation follows it
/// token by token.
///
/// Matches FoundationModels `GenerationSchema`. The `@Generable` macro writes one for each type;
/// ``DynamicGenerationSchema`` builds them at run time. Its `Codable` form is Apple's JSON Schema
/// dialect (see `GenerationSchema+Codable.swift`). Internally it is a ``GenerationSchemaNode`` tree
/// (`root`) and the named types it refers to (`definitions`).
public struct GenerationSchema: Sendable, CustomDebugStringConvertible {
  /// What the schema was made from.
  enum Form: Sendable {
    /// Apple's dialect: the schema of the generated value, and the named types it refers to
    /// with `.reference(name)`.
    case dialect(root: GenerationSchemaNode, definitions: SchemaDefinitions)
    /// Plain JSON Schema text (`init(jsonSchema:)`), which is then also its JSON form.
    case jsonSchema(text: String)
  }

  let form: Form

  /// The schema in guided decoding's form, lowered when the schema is made: what generation
  /// decodes with, whatever the schema was made from.
  let lowered: LoweredSchema

  init(root: GenerationSchemaNode, definitions: SchemaDefinitions = SchemaDefinitions()) {
    form = .dialect(root: root, definitions: definitions)
    lowered = LoweredSchema(root: root, definitions: definitions)
  }

  init(jsonSchemaText text: String, compiled: CompiledSchema) {
    form = .jsonSchema(text: text)
    lowered = LoweredSchema(compiled: compiled)
  }

  /// The schema of the generated value in Apple's dialect; a schema made from JSON Schema text,
  /// which the dialect cannot describe, reads as any value here (its lowered form is exact).
  var root: GenerationSchemaNode {
    guard case .dialect(let root, _) = form else { return .any }
    return root
  }

  /// The named types `root` refers to.
  var definitions: SchemaDefinitions {
    guard case .dialect(_, let definitions) = form else { return SchemaDefinitions() }
    return definitions
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

  /// The schema's name: the generable type's or the dynamic schema's name, or
  /// `GeneratedContent` for an unnamed schema — what a provider passes as the name of a
  /// structured-output request.
  ///
  /// Matches FoundationModels 27 `GenerationSchema.name` (Apple's later betas).
  public var name: String {
    Transcript.ResponseFormat(schema: self).name
  }

  /// The schema's JSON form, for debugging.
  ///
  /// Matches FoundationModels `GenerationSchema.debugDescription`.
  public var debugDescription: String {
    jsonString
  }

  /// The schema as compact JSON in Apple's dialect: what a prompt shows the model when
  /// `includeSchemaInPrompt` is true, and what `tokenCount(for: schema)` measures.
  var jsonString: String {
    switch form {
    case .dialect(let root, let definitions): SchemaJSON.content(root: root, definitions: definitions).jsonString
    case .jsonSchema(let text): text
    }
  }

  /// Regexes in the schema whose source could not be recovered: the schema cannot be enforced
  /// (generation throws `unsupportedGenerationGuide`; the JSON form cannot carry them).
  var unsupportedPatterns: [String] {
    Self.unsupportedPatterns(root: root, definitions: definitions)
  }

  static func unsupportedPatterns(root: GenerationSchemaNode, definitions: SchemaDefinitions) -> [String] {
    root.unsupportedPatterns + definitions.ordered.flatMap(\.node.unsupportedPatterns)
  }

  /// Whether two schemas describe the same structure (definitions compared by name).
  func isEquivalent(to other: GenerationSchema) -> Bool {
    switch (form, other.form) {
    case (.dialect(let root, let definitions), .dialect(let otherRoot, let otherDefinitions)):
      root == otherRoot && definitions == otherDefinitions
    case (.jsonSchema, .jsonSchema): (try? lowered.document.get()) == (try? other.lowered.document.get())
    default: false
    }
  }
}
