extension GenerationSchema {
  /// Creates a schema from a dynamic root schema and the named schemas it refers to.
  ///
  /// Matches FoundationModels `GenerationSchema.init(root:dependencies:)`. Named schemas nested
  /// inline are hoisted into definitions like dependencies; the same schema used twice is fine,
  /// two different schemas with one name are not. Unnamed dependencies (arrays, `.null`,
  /// `type:` schemas) cannot be referred to and are ignored.
  /// - Throws: ``SchemaError`` — `duplicateType`, `duplicateProperty`, `emptyTypeChoices` or
  ///   `undefinedReferences` (all missing names at once, sorted).
  public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
    var resolver = DynamicSchemaResolver()
    if let rootName = root.name {
      resolver.definedNames.insert(rootName)
    }
    for dependency in dependencies {
      try resolver.hoist(dependency, enclosing: nil)
    }
    let rootNode = try resolver.node(for: root, enclosing: nil, isRoot: true)
    let referenced = resolver.definitions.ordered.reduce(rootNode.referencedNames) {
      $0.union($1.node.referencedNames)
    }
    let undefined = referenced.subtracting(resolver.definedNames).sorted()
    guard undefined.isEmpty else {
      throw SchemaError.undefinedReferences(
        schema: root.name, references: undefined,
        context: .init(
          debugDescription: "Undefined references \(undefined) in the schema '\(root.name ?? "root")'."))
    }
    var definitions = resolver.definitions
    if let rootName = root.name, referenced.contains(rootName) {
      definitions.define(rootName, rootNode)
    }
    self.init(root: rootNode, definitions: definitions)
  }
}

/// Turns ``DynamicGenerationSchema`` values into ``GenerationSchemaNode``s, hoisting named schemas.
struct DynamicSchemaResolver {
  var definitions = SchemaDefinitions()
  /// Names that references may use: the root's and every hoisted schema's.
  var definedNames: Set<String> = []

  /// Adds a named schema to the definitions; returns a reference to it.
  @discardableResult
  mutating func hoist(_ schema: DynamicGenerationSchema, enclosing: String?) throws -> GenerationSchemaNode {
    guard let name = schema.name else {
      return try node(for: schema, enclosing: enclosing, isRoot: false)
    }
    let node = try self.node(for: schema, enclosing: enclosing, isRoot: true)
    if let existing = definitions[name] {
      guard existing == node else {
        throw GenerationSchema.SchemaError.duplicateType(
          schema: enclosing, type: name,
          context: .init(debugDescription: "Two different schemas are named '\(name)'."))
      }
    } else if definedNames.contains(name) {
      throw GenerationSchema.SchemaError.duplicateType(
        schema: enclosing, type: name,
        context: .init(debugDescription: "The name '\(name)' is already used by another schema."))
    }
    definitions.define(name, node)
    definedNames.insert(name)
    return .reference(name)
  }

  /// The node for `schema`. Named schemas below the top are hoisted; `isRoot` builds the named
  /// schema itself in place.
  mutating func node(
    for schema: DynamicGenerationSchema, enclosing: String?, isRoot: Bool
  ) throws -> GenerationSchemaNode {
    if !isRoot, schema.name != nil {
      return try hoist(schema, enclosing: enclosing)
    }
    switch schema.body {
    case .object(let name, let description, let explicitNil, let properties):
      var seen: Set<String> = []
      var nodes: [PropertySchema] = []
      for property in properties {
        guard seen.insert(property.name).inserted else {
          throw GenerationSchema.SchemaError.duplicateProperty(
            schema: name, property: property.name,
            context: .init(
              debugDescription: "The schema '\(name)' has two properties named '\(property.name)'."))
        }
        let node = try self.node(for: property.schema, enclosing: name, isRoot: false)
        nodes.append(
          PropertySchema(
            name: property.name, description: property.description, schema: node,
            isOptional: property.isOptional))
      }
      return .object(
        ObjectSchema(
          name: name, description: description, properties: nodes,
          representsNilExplicitly: explicitNil))
    case .union(let name, let description, let choices):
      guard !choices.isEmpty else { throw Self.emptyChoices(name) }
      let nodes = try choices.map { try node(for: $0, enclosing: name, isRoot: false) }
      return .anyOf(UnionSchema(name: name, description: description, choices: nodes))
    case .stringChoices(let name, let description, let choices):
      guard !choices.isEmpty else { throw Self.emptyChoices(name) }
      return .string(StringSchema(name: name, description: description, choices: choices))
    case .array(let items, let minimumCount, let maximumCount):
      let itemNode = try node(for: items, enclosing: enclosing, isRoot: false)
      return .array(ArraySchema(items: itemNode, minimumCount: minimumCount, maximumCount: maximumCount))
    case .value(let fragment):
      for (name, node) in fragment.definitions.ordered {
        definitions.define(name, node)
        definedNames.insert(name)
      }
      return fragment.node
    case .reference(let name):
      return .reference(name)
    case .null:
      return .null
    }
  }

  private static func emptyChoices(_ name: String) -> GenerationSchema.SchemaError {
    .emptyTypeChoices(
      schema: name, context: .init(debugDescription: "The schema '\(name)' has no choices."))
  }
}
