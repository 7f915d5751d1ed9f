/// Builds the schema of a type out of the schemas of the types it contains.
///
/// A named type (a `@Generable` struct or enum) used inside another becomes a reference, and its
/// node moves into the definitions. Recursion (`struct Node { var children: [Node] }`) would make
/// `Node.generationSchema` call itself forever, so while a type's schema is being built its name
/// is in ``typesInProgress``, and asking for that type again yields a reference instead.
enum SchemaComposer {
  /// Names of the types whose schemas are being built on this task, innermost last.
  @TaskLocal static var typesInProgress: Set<String> = []

  /// The name a type has in schemas: the `name:` of `@Generable(name:)`, else its plain type
  /// name, as Apple's `title`.
  static func name(of type: Any.Type) -> String {
    (type as? any _GenerableSchemaName.Type)?._generationSchemaName ?? String(describing: type)
  }

  /// The node for a value of `type` inside another schema, with the definitions it needs.
  static func fragment(for type: any Generable.Type) -> SchemaFragment {
    let typeName = name(of: type)
    if typesInProgress.contains(typeName) {
      return SchemaFragment(node: .reference(typeName), definitions: SchemaDefinitions())
    }
    let schema = type.generationSchema
    var definitions = schema.definitions
    guard let rootName = schema.root.definitionName else {
      return SchemaFragment(node: schema.root, definitions: definitions)
    }
    definitions.define(rootName, schema.root)
    return SchemaFragment(node: .reference(rootName), definitions: definitions)
  }

  /// Builds the schema of the named type `typeName`; `build` runs with the name in progress.
  ///
  /// When the result refers back to its own name, the root is added to the definitions too so
  /// that every reference resolves.
  static func schema(
    named typeName: String, build: () -> (root: GenerationSchemaNode, definitions: SchemaDefinitions)
  ) -> GenerationSchema {
    let built = $typesInProgress.withValue(typesInProgress.union([typeName])) { build() }
    let root = built.root
    var definitions = built.definitions
    let referenced = definitions.ordered.reduce(root.referencedNames) {
      $0.union($1.node.referencedNames)
    }
    if referenced.contains(typeName) {
      definitions.define(typeName, root)
    }
    return GenerationSchema(root: root, definitions: definitions)
  }
}

/// A node and the named definitions it refers to.
struct SchemaFragment: Sendable {
  var node: GenerationSchemaNode
  var definitions: SchemaDefinitions
}
