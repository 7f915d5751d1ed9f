import JSON

/// Lowering of the keywords about member names: `patternProperties` and `propertyNames`.
extension SchemaLowering {
  /// One entry of `patternProperties`, its schema as written and as lowered.
  struct LoweredPattern {
    var pattern: String
    var automaton: CodePointAutomaton
    var value: JSONValue
    var node: SchemaNode
  }

  /// The entries of `patternProperties`, in order, each pattern checked.
  mutating func patternEntries(_ keywords: [String: JSONValue], path: String) throws -> [LoweredPattern] {
    guard let value = keywords["patternProperties"] else { return [] }
    guard case .object(let members) = value else {
      throw SchemaError.invalidSchema("patternProperties must be an object", path: path + "/patternProperties")
    }
    return try members.map { m in
      let at = "\(path)/patternProperties/\(Self.escapedToken(m.key))"
      // Why: an unsupported pattern must fail at parse time, naming the pattern.
      let automaton = try CodePointAutomaton.cached(pattern: m.key)
      return LoweredPattern(pattern: m.key, automaton: automaton, value: m.value, node: try lower(m.value, path: at))
    }
  }

  /// The sets of two or more patterns that some name matches all of, each with its
  /// patterns' schemas merged: found by growing sets whose patterns overlap pairwise and
  /// keeping those whose product automaton accepts something.
  mutating func patternOverlaps(_ entries: [LoweredPattern], path: String) throws
    -> [ObjectConstraints.PatternOverlap]
  {
    guard entries.count > 1 else { return [] }
    let source = entries.map(\.pattern).joined(separator: " & ")
    func jointlyMatched(_ set: [Int]) throws -> Bool {
      try CodePointAutomaton.product(set.map { entries[$0].automaton }, source: source) { !$0.contains(false) } != nil
    }
    var overlapping = Set<[Int]>()
    for i in entries.indices {
      for j in entries.indices where j > i {
        if try jointlyMatched([i, j]) { overlapping.insert([i, j]) }
      }
    }
    var found: [[Int]] = []
    var pending = overlapping.sorted { $0.lexicographicallyPrecedes($1) }
    while let set = pending.popLast(), let last = set.last {
      found.append(set)
      guard found.count <= Self.overlapLimit else {
        throw SchemaError.unsupportedKeyword(
          "patternProperties (more than \(Self.overlapLimit) overlapping sets)", path: path + "/patternProperties")
      }
      for k in (last + 1)..<entries.count where set.allSatisfy({ overlapping.contains([$0, k]) }) {
        if try jointlyMatched(set + [k]) { pending.append(set + [k]) }
      }
    }
    return try found.sorted { $0.lexicographicallyPrecedes($1) }.map { set in
      let merging = SchemaMerging(document: document, path: path, options: options)
      let merged = try merging.merge(set.map { entries[$0].value })
      return .init(patterns: set, schema: try lowerMerged(merged, path: path + "/patternProperties"))
    }
  }

  /// Most sets of overlapping patterns one object may have.
  static let overlapLimit = 64

  /// The schema of a member named `name` that `properties` declares as `value` (nil when it
  /// does not): also every schema of a pattern the name matches; `never` when the name breaks
  /// `propertyNames`.
  mutating func memberSchema(
    named name: String, declared value: JSONValue?, patterns: [LoweredPattern], names: StringConstraints?,
    otherwise: SchemaNode?, path: String
  ) throws -> SchemaNode {
    if let names, try !SchemaValidator(definitions: [:]).validate(.string(name), against: .string(names)) {
      return .never
    }
    let matched = patterns.filter { $0.automaton.matches(name) }
    switch (value, matched.count) {
    case (let value?, 0): return try lower(value, path: path)
    case (nil, 0): return otherwise ?? .never
    case (nil, 1): return matched[0].node
    default:
      let parts = (value.map { [$0] } ?? []) + matched.map(\.value)
      return try lowerMerged(SchemaMerging(document: document, path: path, options: options).merge(parts), path: path)
    }
  }

  /// `propertyNames` as constraints on a string: its string keywords, or the names an `enum`
  /// or `const` lists; nil when it constrains nothing.
  ///
  /// Other keywords are refused by name.
  mutating func propertyNames(_ keywords: [String: JSONValue], path: String) throws -> StringConstraints? {
    guard let value = keywords["propertyNames"] else { return nil }
    let at = path + "/propertyNames"
    let node = try lower(value, path: at)
    // Names are strings: branches of other types say nothing about them.
    let branches = (node.anyOfBranches ?? [node]).filter(\.canBeString)
    if branches.isEmpty { return StringConstraints(minLength: 1, maxLength: 0) }  // no name at all
    let literals = branches.compactMap { branch -> String? in
      if case .const(.string(let s)) = branch { s } else { nil }
    }
    if literals.count == branches.count { return StringConstraints(pattern: Self.literalPattern(literals)) }
    guard branches.count == 1 else { throw SchemaError.unsupportedKeyword("propertyNames (anyOf)", path: at) }
    switch branches[0] {
    case .any: return nil
    case .string(let c):
      guard c.format == nil else { throw SchemaError.unsupportedKeyword("propertyNames (format)", path: at) }
      return c
    default: throw SchemaError.unsupportedKeyword("propertyNames (\(branches[0].kindName))", path: at)
    }
  }

  /// An anchored pattern matching exactly `words`.
  static func literalPattern(_ words: [String]) -> String {
    "^(?:" + words.map { $0.unicodeScalars.map(RegexComplement.escaped).joined() }.joined(separator: "|") + ")$"
  }

  /// `key` as a JSON Pointer reference token.
  static func escapedToken(_ key: String) -> String {
    key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }
}

extension SchemaNode {
  fileprivate var anyOfBranches: [SchemaNode]? {
    if case .anyOf(let branches) = self { branches } else { nil }
  }

  /// Whether some string can satisfy the node, as far as its kind tells.
  fileprivate var canBeString: Bool {
    switch self {
    case .null, .boolean, .integer, .number, .array, .object, .never: false
    case .const(let value): if case .string = value { true } else { false }
    default: true
    }
  }

  fileprivate var kindName: String {
    switch self {
    case .ref: "$ref"
    case .anyOf: "anyOf"
    default: "keyword"
    }
  }
}
