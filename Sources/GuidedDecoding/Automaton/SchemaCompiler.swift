import JSON

/// Compiles a `SchemaDocument` into a `JSONGrammar`.
struct SchemaCompiler {
  private let document: SchemaDocument
  private let options: ConstraintOptions
  private var nodes: [JSONGrammar.Node] = []
  /// Compiled references by definition and recursion level.
  private var referenceIDs: [ReferenceKey: Int32] = [:]
  /// The free-value node by nesting level (one cyclic node when recursion is unlimited).
  private var anyIDs: [Int: Int32] = [:]
  /// Definitions that can reach themselves through references.
  private let recursive: Set<String>
  /// Definitions from which a recursive one can be reached: their compiled form depends on
  /// the recursion level, so they are compiled once per level.
  private let reachesRecursion: Set<String>

  private struct ReferenceKey: Hashable {
    var name: String
    var level: Int
  }

  /// Compiles `document`.
  /// - Throws: `SchemaError` for an unresolved reference, an unsupported pattern, or a
  ///   schema no value satisfies.
  static func compile(_ document: SchemaDocument, options: ConstraintOptions = .generation) throws -> JSONGrammar {
    var compiler = SchemaCompiler(document: document, options: options)
    let root = try compiler.compile(document.root, level: 0)
    let space = options.spacesSeparators ? compiler.add(.literal([UInt8(ascii: " ")])) : nil
    var grammar = JSONGrammar(nodes: compiler.nodes, root: root, separatorSpace: space)
    do {
      try GrammarPruning.prune(&grammar)
    } catch let error as SchemaError where options.maximumRecursion != nil && !compiler.recursive.isEmpty {
      // Every value needs more levels than the limit allows: the limit gives way, not the schema.
      var unlimited = options
      unlimited.maximumRecursion = nil
      guard let grammar = try? compile(document, options: unlimited) else { throw error }
      return grammar
    }
    return grammar
  }

  private init(document: SchemaDocument, options: ConstraintOptions) {
    self.document = document
    self.options = options
    let graph = document.definitions.mapValues { Self.references(in: $0) }
    let cyclic = Set(graph.keys.filter { Self.reachable(from: graph[$0] ?? [], in: graph).contains($0) })
    recursive = cyclic
    reachesRecursion = Set(
      graph.keys.filter { name in
        cyclic.contains(name) || !Self.reachable(from: graph[name] ?? [], in: graph).isDisjoint(with: cyclic)
      })
  }

  /// The definitions `node` refers to directly.
  private static func references(in node: SchemaNode) -> Set<String> {
    var found: Set<String> = []
    var pending = [node]
    while let next = pending.popLast() {
      switch next {
      case .ref(let name): found.insert(name)
      case .anyOf(let branches): pending += branches
      case .array(let c):
        pending += c.prefixItems + (c.items.map { [$0] } ?? [])
        if let k = c.contains {
          pending += k.matchingPrefixItems + (k.otherPrefixItems ?? [])
          pending += [k.matchingItems, k.otherItems].compactMap { $0 }
        }
      case .object(let c):
        pending += c.properties.map(\.schema) + (c.additionalProperties.map { [$0] } ?? [])
        pending += c.patternProperties.map(\.schema) + c.patternOverlaps.map(\.schema)
      default: break
      }
    }
    return found
  }

  private static func reachable(from start: Set<String>, in graph: [String: Set<String>]) -> Set<String> {
    var seen = start
    var pending = Array(start)
    while let name = pending.popLast() {
      for next in graph[name] ?? [] where seen.insert(next).inserted { pending.append(next) }
    }
    return seen
  }

  private mutating func add(_ node: JSONGrammar.Node) -> Int32 {
    nodes.append(node)
    return Int32(nodes.count - 1)
  }

  private mutating func literal(_ text: String) -> Int32 {
    add(.literal(Array(text.utf8)))
  }

  /// Compiles `node` found `level` recursive references deep.
  private mutating func compile(_ node: SchemaNode, level: Int) throws -> Int32 {
    switch node {
    case .any: return try anyValue(level: level)
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
      for b in branches { ids.append(try compile(b, level: level)) }
      nodes[Int(id)] = .choice(ids)
      return id
    case .ref(let name):
      // Without a limit, a recursive reference is a cycle in the grammar: one node per definition.
      let inner = recursive.contains(name) && options.maximumRecursion != nil ? level + 1 : level
      if let limit = options.maximumRecursion, inner > limit { return add(.choice([])) }
      let key = ReferenceKey(name: name, level: reachesRecursion.contains(name) ? inner : 0)
      if let id = referenceIDs[key] { return id }
      guard let target = document.definitions[name] else {
        throw SchemaError.unresolvedReference(name, path: "")
      }
      let id = add(.choice([]))
      referenceIDs[key] = id
      nodes[Int(id)] = .choice([try compile(target, level: inner)])
      return id
    case .array(let c):
      let prefix = try c.prefixItems.map { try compile($0, level: level) }
      let items = try c.items.map { try compile($0, level: level) }
      let contains = try c.contains.map { k in
        JSONGrammar.ContainsSpec(
          matchingPrefixItems: try k.matchingPrefixItems.map { try compile($0, level: level) },
          matchingItems: try k.matchingItems.map { try compile($0, level: level) },
          otherPrefixItems: try k.otherPrefixItems?.map { try compile($0, level: level) },
          otherItems: try k.otherItems.map { try compile($0, level: level) }, minimum: k.minimum, maximum: k.maximum)
      }
      return add(
        .array(
          .init(prefixItems: prefix, items: items, minItems: c.minItems, maxItems: c.maxItems, contains: contains)))
    case .object(let c):
      var properties: [JSONGrammar.ObjectSpec.Property] = []
      for p in c.properties {
        var key: [UInt8] = []
        JSONValue.appendJSONString(p.name, to: &key)
        key.append(UInt8(ascii: ":"))
        if options.spacesSeparators { key.append(UInt8(ascii: " ")) }
        properties.append(
          .init(name: p.name, keyBytes: key, node: try compile(p.schema, level: level), isRequired: p.isRequired))
      }
      return add(
        .object(
          Self.objectSpec(
            properties, additional: try additionalKinds(c, level: level), minProperties: c.minProperties,
            maxProperties: c.maxProperties)))
    }
  }

  /// The kinds of undeclared member: one per set of patterns a name can match exactly
  /// (each pattern alone, each overlap), with that set's schema, and the names matching no
  /// pattern with `additionalProperties`.
  ///
  /// Each kind's names are read by one automaton that also holds `propertyNames` and "not a
  /// declared name", so kinds never overlap and a name can always be finished (the names trie alone
  /// could leave only declared names).
  private mutating func additionalKinds(_ c: ObjectConstraints, level: Int) throws
    -> [JSONGrammar.ObjectSpec.AdditionalKind]
  {
    var sets: [(patterns: [Int], schema: SchemaNode)] = c.patternProperties.indices.map {
      ([$0], c.patternProperties[$0].schema)
    }
    sets += c.patternOverlaps.map { ($0.patterns, $0.schema) }
    // Members only JSON Schema's default allows are not invented, unless the object must
    // have more members than it declares.
    let invents =
      !c.additionalPropertiesAreImplicit || options.generatesUndeclaredProperties
      || c.minProperties > c.properties.count
    if let additional = c.additionalProperties, invents { sets.append(([], additional)) }
    let names = c.propertyNames ?? StringConstraints()
    let declared = c.properties.map(\.name)
    var kinds: [JSONGrammar.ObjectSpec.AdditionalKind] = []
    for set in sets {
      guard let key = try keyNode(matching: set.patterns, of: c.patternProperties, names: names, declared: declared)
      else { continue }
      kinds.append(.init(key: key, value: try compile(set.schema, level: level)))
    }
    return kinds
  }

  /// The string node that reads a name matching exactly the patterns `matched` of
  /// `patterns`, `names` and no declared name; nil when no name can.
  private mutating func keyNode(
    matching matched: [Int], of patterns: [ObjectConstraints.PatternProperty], names: StringConstraints,
    declared: [String]
  ) throws -> Int32? {
    let constrained = !patterns.isEmpty || names.pattern != nil || names.minLength > 0 || names.maxLength != nil
    guard constrained else { return add(.string(.unconstrained)) }
    var parts = try patterns.map { try CodePointAutomaton.cached(pattern: $0.pattern) }
    var sources = patterns.map(\.pattern)
    for extra in [names.pattern, declared.isEmpty ? nil : RegexComplement.pattern(excluding: declared)] {
      guard let extra else { continue }
      parts.append(try CodePointAutomaton.cached(pattern: extra))
      sources.append(extra)
    }
    guard !parts.isEmpty else { return add(.string(stringSpec(automata: [], names.minLength, names.maxLength))) }
    let count = patterns.count
    let rule = { (matches: [Bool]) in
      matches.indices.allSatisfy { i in i >= count ? matches[i] : matches[i] == matched.contains(i) }
    }
    guard let automaton = try CodePointAutomaton.product(parts, source: sources.joined(separator: " & "), rule: rule)
    else { return nil }
    return add(.string(stringSpec(automata: [automaton], names.minLength, names.maxLength)))
  }

  /// Any JSON value.
  ///
  /// With a recursion limit, arrays and objects in it nest at most that many levels (below, only
  /// scalars); without one it is a single cyclic node.
  private mutating func anyValue(level: Int) throws -> Int32 {
    let key = options.maximumRecursion == nil ? 0 : level
    if let id = anyIDs[key] { return id }
    let id = add(.choice([]))
    anyIDs[key] = id
    var choices = [
      literal("null"), literal("true"), literal("false"),
      add(.number(.init(isInteger: false, bounds: .unbounded))),
      try stringNode(StringConstraints()),
    ]
    if let limit = options.maximumRecursion, level >= limit {
      nodes[Int(id)] = .choice(choices)
      return id
    }
    let inner = options.maximumRecursion == nil ? id : try anyValue(level: level + 1)
    choices.append(add(.array(.init(prefixItems: [], items: inner, minItems: 0, maxItems: nil))))
    let name = add(.string(.unconstrained))
    choices.append(add(.object(Self.objectSpec([], additional: [.init(key: name, value: inner)]))))
    nodes[Int(id)] = .choice(choices)
    return id
  }

  static func objectSpec(
    _ properties: [JSONGrammar.ObjectSpec.Property], additional: [JSONGrammar.ObjectSpec.AdditionalKind],
    minProperties: Int = 0,
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
    // Generation writes well-formed values; the standard's language follows the draft.
    let format = document.formatsAreAnnotations && options.formatsFollowTheDraft ? nil : c.format
    let maxLength = [c.maxLength, format?.maximumLength].compactMap { $0 }.min()
    let formatPattern = options.formatsFollowTheDraft ? format?.pattern : format?.writingPattern
    for p in [c.pattern, formatPattern].compactMap({ $0 }) {
      list.append(try CodePointAutomaton.cached(pattern: p))
    }
    return add(.string(stringSpec(automata: list, c.minLength, maxLength)))
  }

  private func stringSpec(automata: [CodePointAutomaton], _ minLength: Int, _ maxLength: Int?)
    -> JSONGrammar.StringSpec
  {
    var representatives = Set<UInt32>()
    for a in automata {
      for b in a.boundaries where !(0xD800...0xDFFF).contains(b) { representatives.insert(b) }
      // A class starting in the surrogate block still holds the scalars after it.
      if a.boundaries.contains(where: { (0xD800...0xDFFF).contains($0) }) { representatives.insert(0xE000) }
    }
    return .init(
      automata: automata, minLength: minLength, maxLength: maxLength, representatives: representatives.sorted())
  }
}
