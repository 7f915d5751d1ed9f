/// The internal representation of a generation schema — what guided decoding compiles.
///
/// A ``GenerationSchema`` is a `root` node plus a table of named `definitions`. Walk it like this:
///
/// - `.object`: a structure. `properties` are in **declaration order** (the order the model must
///   generate them in); each has a name, an optional description, a node, and `isOptional`
///   (an optional property may be left out; with `representsNilExplicitly` the macro writes it as
///   `null` instead, so a decoder should accept both).
/// - `.array`: `items` with inclusive `minimumCount` / `maximumCount` (nil: unbounded).
/// - `.string`: free text unless `constant` (exactly that value), `choices` (one of these
///   values) or `patterns` (regex sources, all must match the whole string) restrict it.
///   A string node with a `name` is a named string enumeration (`@Generable enum`).
/// - `.integer` / `.number`: inclusive `minimum` / `maximum` bounds (nil: unbounded).
/// - `.boolean`, `.null`.
/// - `.anyOf`: exactly one of `choices` (a `@Generable` enum with associated values, a
///   dynamic `anyOf` of schemas, or `[person, .null]`).
/// - `.reference(name)`: the node `definitions[name]`. Named types used inside another type
///   (objects, named enumerations, named unions) are always hoisted into `definitions` and
///   referenced, so recursive types are finite; the root's own name is in `definitions` only
///   when something refers back to it.
/// - `.any`: any JSON value (the schema of `GeneratedContent` itself).
/// - Regexes whose source could not be recovered are kept in `StringSchema.unsupportedPatterns`
///   (and listed by `GenerationSchema.unsupportedPatterns`); the compiler must turn them into
///   `GenerationError.unsupportedGuide`, never ignore them.
indirect enum GenerationSchemaNode: Sendable, Equatable {
  case object(ObjectSchema)
  case array(ArraySchema)
  case string(StringSchema)
  case integer(NumberSchema)
  case number(NumberSchema)
  case boolean
  case null
  case anyOf(UnionSchema)
  case reference(String)
  case any

  /// The name under which this node is hoisted into definitions; `nil` for anonymous nodes.
  var definitionName: String? {
    switch self {
    case .object(let object): return object.name
    case .anyOf(let union): return union.name
    case .string(let string): return string.name
    case .array, .integer, .number, .boolean, .null, .reference, .any: return nil
    }
  }

  /// Descriptions of the regexes in this node (and its children) whose source is unknown.
  var unsupportedPatterns: [String] {
    switch self {
    case .string(let string): return string.unsupportedPatterns
    case .object(let object): return object.properties.flatMap(\.schema.unsupportedPatterns)
    case .array(let array): return array.items.unsupportedPatterns
    case .anyOf(let union): return union.choices.flatMap(\.unsupportedPatterns)
    case .integer, .number, .boolean, .null, .reference, .any: return []
    }
  }

  /// Every name this node (and its children) refers to.
  var referencedNames: Set<String> {
    switch self {
    case .reference(let name): return [name]
    case .object(let object):
      return object.properties.reduce(into: []) { $0.formUnion($1.schema.referencedNames) }
    case .array(let array): return array.items.referencedNames
    case .anyOf(let union):
      return union.choices.reduce(into: []) { $0.formUnion($1.referencedNames) }
    case .string, .integer, .number, .boolean, .null, .any: return []
    }
  }
}

/// A structure with properties in declaration order.
struct ObjectSchema: Sendable, Equatable {
  var name: String
  var description: String?
  var properties: [PropertySchema]
  /// Whether absent optionals are written as explicit `null` (26.4's
  /// `representNilExplicitlyInGeneratedContent`); not part of the JSON form.
  var representsNilExplicitly = false
}

/// One property of an ``ObjectSchema``.
struct PropertySchema: Sendable, Equatable {
  var name: String
  var description: String?
  var schema: GenerationSchemaNode
  var isOptional: Bool
}

/// An array of `items`.
struct ArraySchema: Sendable, Equatable {
  var items: GenerationSchemaNode
  var minimumCount: Int?
  var maximumCount: Int?
}

/// A string, possibly restricted.
struct StringSchema: Sendable, Equatable {
  /// Set for named string enumerations.
  var name: String?
  var description: String?
  var constant: String?
  var choices: [String]?
  /// Regex sources (as `Regex._literalPattern` prints them); every one must match.
  var patterns: [String] = []
  /// Regexes whose source could not be recovered; compiling them must fail with
  /// `unsupportedGuide`, never ignore them.
  var unsupportedPatterns: [String] = []
}

/// Bounds of an integer or number, inclusive.
struct NumberSchema: Sendable, Equatable {
  var minimum: Double?
  var maximum: Double?
}

/// A choice of exactly one of several schemas.
struct UnionSchema: Sendable, Equatable {
  var name: String?
  var description: String?
  var choices: [GenerationSchemaNode]
}

/// Named nodes, in the order they were first defined.
///
/// Equality ignores order, because the JSON form (`$defs`) does not keep it.
struct SchemaDefinitions: Sendable, Equatable {
  private(set) var names: [String] = []
  private(set) var nodes: [String: GenerationSchemaNode] = [:]

  subscript(name: String) -> GenerationSchemaNode? { nodes[name] }

  var isEmpty: Bool { names.isEmpty }

  /// The definitions in order.
  var ordered: [(name: String, node: GenerationSchemaNode)] {
    names.compactMap { name in nodes[name].map { (name, $0) } }
  }

  /// Adds a definition; an existing one with the same name is kept.
  mutating func define(_ name: String, _ node: GenerationSchemaNode) {
    guard nodes[name] == nil else { return }
    names.append(name)
    nodes[name] = node
  }

  /// Adds every definition of `other` that is not defined yet.
  mutating func merge(_ other: SchemaDefinitions) {
    for (name, node) in other.ordered { define(name, node) }
  }

  static func == (lhs: SchemaDefinitions, rhs: SchemaDefinitions) -> Bool {
    lhs.nodes == rhs.nodes
  }
}
