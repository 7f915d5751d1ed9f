/// Compiles a `SchemaDocument` into a `JSONGrammar`.
struct SchemaCompiler {
  private let document: SchemaDocument
  private var nodes: [JSONGrammar.Node] = []
  private var referenceIDs: [String: Int32] = [:]
  private var anyID: Int32?
  private var automata: [String: CodePointAutomaton] = [:]

  /// Compiles `document`.
  /// - Throws: `SchemaError` for an unresolved reference, an unsupported pattern, or a
  ///   schema no value satisfies.
  static func compile(_ document: SchemaDocument) throws -> JSONGrammar {
    var compiler = SchemaCompiler(document: document)
    let root = try compiler.compile(document.root)
    var grammar = JSONGrammar(nodes: compiler.nodes, root: root)
    try GrammarPruning.prune(&grammar)
    return grammar
  }

  private init(document: SchemaDocument) {
    self.document = document
  }

  private mutating func add(_ node: JSONGrammar.Node) -> Int32 {
    nodes.append(node)
    return Int32(nodes.count - 1)
  }

  private mutating func literal(_ text: String) -> Int32 {
    add(.literal(Array(text.utf8)))
  }

  private mutating func compile(_ node: SchemaNode) throws -> Int32 {
    switch node {
    case .any:
      if let anyID { return anyID }
      // The any-value node is a cycle: arrays and objects contain any values again.
      let id = add(.choice([]))
      anyID = id
      let choices = [
        literal("null"), literal("true"), literal("false"),
        add(.number(.init(isInteger: false, bounds: .unbounded))),
        try stringNode(StringConstraints()),
        add(.array(.init(prefixItems: [], items: id, minItems: 0, maxItems: nil))),
        add(.object(Self.objectSpec([], additional: id))),
      ]
      nodes[Int(id)] = .choice(choices)
      return id
    case .never: return add(.choice([]))
    case .null: return literal("null")
    case .boolean: return add(.choice([literal("true"), literal("false")]))
    case .integer(let bounds): return add(.number(.init(isInteger: true, bounds: bounds)))
    case .number(let bounds): return add(.number(.init(isInteger: false, bounds: bounds)))
    case .string(let constraints): return try stringNode(constraints)
    case .const(let value):
      var bytes: [UInt8] = []
      value.appendCompact(to: &bytes)
      return add(.literal(bytes))
    case .anyOf(let branches):
      let id = add(.choice([]))
      var ids: [Int32] = []
      for b in branches { ids.append(try compile(b)) }
      nodes[Int(id)] = .choice(ids)
      return id
    case .ref(let name):
      if let id = referenceIDs[name] { return id }
      guard let target = document.definitions[name] else {
        throw SchemaError.unresolvedReference(name, path: "")
      }
      let id = add(.choice([]))
      referenceIDs[name] = id
      nodes[Int(id)] = .choice([try compile(target)])
      return id
    case .array(let c):
      let prefix = try c.prefixItems.map { try compile($0) }
      let items = try c.items.map { try compile($0) }
      return add(.array(.init(prefixItems: prefix, items: items, minItems: c.minItems, maxItems: c.maxItems)))
    case .object(let c):
      var properties: [JSONGrammar.ObjectSpec.Property] = []
      for p in c.properties {
        var key: [UInt8] = []
        JSONValue.appendJSONString(p.name, to: &key)
        key.append(UInt8(ascii: ":"))
        properties.append(.init(name: p.name, keyBytes: key, node: try compile(p.schema), isRequired: p.isRequired))
      }
      let additional = try c.additionalProperties.map { try compile($0) }
      return add(
        .object(
          Self.objectSpec(
            properties, additional: additional, minProperties: c.minProperties, maxProperties: c.maxProperties)))
    }
  }

  static func objectSpec(
    _ properties: [JSONGrammar.ObjectSpec.Property], additional: Int32?, minProperties: Int = 0,
    maxProperties: Int? = nil, names: NameTrie? = nil
  ) -> JSONGrammar.ObjectSpec {
    var firstRequired = [Int](repeating: properties.count, count: properties.count + 1)
    var requiredFrom = [Int](repeating: 0, count: properties.count + 1)
    for i in stride(from: properties.count - 1, through: 0, by: -1) {
      firstRequired[i] = properties[i].isRequired ? i : firstRequired[i + 1]
      requiredFrom[i] = requiredFrom[i + 1] + (properties[i].isRequired ? 1 : 0)
    }
    return .init(
      properties: properties, additional: additional, firstRequired: firstRequired,
      names: names ?? NameTrie(properties.map(\.name)), minProperties: minProperties, maxProperties: maxProperties,
      requiredFrom: requiredFrom)
  }

  private mutating func stringNode(_ c: StringConstraints) throws -> Int32 {
    var list: [CodePointAutomaton] = []
    for p in [c.pattern, c.format?.pattern].compactMap({ $0 }) {
      if let cached = automata[p] {
        list.append(cached)
      } else {
        let a = try CodePointAutomaton(pattern: p)
        automata[p] = a
        list.append(a)
      }
    }
    var representatives = Set<UInt32>()
    for a in list {
      for b in a.boundaries where !(0xD800...0xDFFF).contains(b) { representatives.insert(b) }
      // A class starting in the surrogate block still holds the scalars after it.
      if a.boundaries.contains(where: { (0xD800...0xDFFF).contains($0) }) { representatives.insert(0xE000) }
    }
    return add(
      .string(
        .init(
          automata: list, minLength: c.minLength, maxLength: c.maxLength,
          representatives: representatives.sorted())))
  }
}
