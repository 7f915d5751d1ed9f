/// A schema built at run time, for structures that are not known when the app is compiled.
///
/// Matches FoundationModels `DynamicGenerationSchema`. Turn one into a ``GenerationSchema`` with
/// `GenerationSchema(root:dependencies:)`, which resolves references by name and checks for
/// errors. Named schemas nested inline are hoisted automatically.
public struct DynamicGenerationSchema: Sendable {
  /// What kind of schema this is.
  indirect enum Body: Sendable {
    case object(
      name: String, description: String?, representsNilExplicitly: Bool, properties: [Property])
    case union(name: String, description: String?, choices: [DynamicGenerationSchema])
    case stringChoices(name: String, description: String?, choices: [String])
    case array(items: DynamicGenerationSchema, minimumCount: Int?, maximumCount: Int?)
    case value(SchemaFragment)
    case reference(String)
    case null
  }

  let body: Body

  private init(body: Body) {
    self.body = body
  }

  /// The schema's name, for the kinds of schema that have one.
  var name: String? {
    switch body {
    case .object(let name, _, _, _), .union(let name, _, _), .stringChoices(let name, _, _):
      return name
    case .array, .value, .reference, .null:
      return nil
    }
  }

  /// Creates the schema of a structure with the given properties, in order.
  ///
  /// Matches FoundationModels `DynamicGenerationSchema.init(name:description:properties:)`.
  public init(name: String, description: String? = nil, properties: [Property]) {
    self.init(
      body: .object(
        name: name, description: description, representsNilExplicitly: false,
        properties: properties))
  }

  /// Creates the schema of a structure, saying whether absent optionals are written as `null`.
  ///
  /// Matches FoundationModels `DynamicGenerationSchema.init(name:description:representNilExplicitlyInGeneratedContent:properties:)` (26.4).
  public init(
    name: String, description: String? = nil,
    representNilExplicitlyInGeneratedContent explicitNil: Bool, properties: [Property]
  ) {
    self.init(
      body: .object(
        name: name, description: description, representsNilExplicitly: explicitNil,
        properties: properties))
  }

  /// Creates a union: the value follows exactly one of the schemas.
  ///
  /// Matches FoundationModels `DynamicGenerationSchema.init(name:description:anyOf:)` with schemas.
  public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
    self.init(body: .union(name: name, description: description, choices: choices))
  }

  /// Creates a string enumeration: the value is one of the strings.
  ///
  /// Matches FoundationModels `DynamicGenerationSchema.init(name:description:anyOf:)` with strings.
  public init(name: String, description: String? = nil, anyOf choices: [String]) {
    self.init(body: .stringChoices(name: name, description: description, choices: choices))
  }

  /// Creates an array whose elements follow `itemSchema`, with optional bounds on its count.
  ///
  /// Matches FoundationModels `DynamicGenerationSchema.init(arrayOf:minimumElements:maximumElements:)`.
  public init(
    arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil,
    maximumElements: Int? = nil
  ) {
    self.init(
      body: .array(items: itemSchema, minimumCount: minimumElements, maximumCount: maximumElements))
  }

  /// Creates the schema of a generable type, with guides.
  ///
  /// Matches FoundationModels `DynamicGenerationSchema.init(type:guides:)`.
  public init<Value: Generable>(type: Value.Type, guides: [GenerationGuide<Value>] = []) {
    var fragment = SchemaComposer.fragment(for: type)
    fragment.node = fragment.node.applying(guides.flatMap(\.kinds))
    self.init(body: .value(fragment))
  }

  /// Creates a reference to the schema with the given name, resolved by
  /// `GenerationSchema(root:dependencies:)`.
  ///
  /// Matches FoundationModels `DynamicGenerationSchema.init(referenceTo:)`.
  public init(referenceTo name: String) {
    self.init(body: .reference(name))
  }

  /// A `null` value: for values that cannot be absent but may be empty, as in
  /// `anyOf: [person, .null]`.
  ///
  /// Matches FoundationModels `DynamicGenerationSchema.null` (26.4).
  public static var null: DynamicGenerationSchema {
    DynamicGenerationSchema(body: .null)
  }

  /// A property of a dynamic structure.
  ///
  /// Matches FoundationModels `DynamicGenerationSchema.Property`.
  public struct Property: Sendable {
    let name: String
    let description: String?
    let schema: DynamicGenerationSchema
    let isOptional: Bool

    /// Creates a property.
    ///
    /// Matches FoundationModels `DynamicGenerationSchema.Property.init(name:description:schema:isOptional:)`.
    public init(
      name: String, description: String? = nil, schema: DynamicGenerationSchema,
      isOptional: Bool = false
    ) {
      self.name = name
      self.description = description
      self.schema = schema
      self.isOptional = isOptional
    }
  }
}
