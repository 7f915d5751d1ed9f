import Foundation
import JSON

/// The working state of one `JSONSchemaParser.parse` call: lowers schema objects and
/// resolves local `$ref` pointers into a definitions table keyed by the pointer.
struct SchemaLowering {
  let document: JSONValue
  let options: JSONSchemaParser.Options
  var definitions: [String: SchemaNode] = [:]
  private var pendingReferences: [(pointer: String, path: String)] = []
  private var requestedReferences: Set<String> = []
  private var mergeDepth = 0
  /// How many throwaway lowerings (for `oneOf` disjointness) enclose this one.
  var copyDepth = 0
  /// Drafts 3 to 7: keywords beside `$ref` are ignored.
  let refReplacesSiblings: Bool

  init(document: JSONValue, options: JSONSchemaParser.Options) {
    self.document = document
    self.options = options
    refReplacesSiblings = Self.refReplacesSiblings(in: document)
  }

  /// Whether `document` declares a draft (3 to 7) in which `$ref` replaces its siblings.
  static func refReplacesSiblings(in document: JSONValue) -> Bool {
    guard case .string(let uri)? = document["$schema"] else { return false }
    return ["draft-03", "draft-04", "draft-06", "draft-07"].contains { uri.contains($0) }
  }

  /// Keywords that carry no constraint.
  static let annotations: Set<String> = [
    "title", "description", "$schema", "$id", "id", "default", "examples", "$comment",
    "x-order", "readOnly", "writeOnly", "deprecated", "$defs", "definitions", "$anchor",
    "contentMediaType", "contentEncoding",
  ]

  /// Every keyword of the JSON Schema vocabularies, drafts 4 to 2020-12; only these can be
  /// constraints, so `acceptsUnknownKeywords` may treat anything else as an annotation.
  static let standardKeywords: Set<String> = [
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
    "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required",
    "dependentRequired", "dependencies", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
    "dependentSchemas", "prefixItems", "items", "additionalItems", "contains", "properties",
    "patternProperties", "additionalProperties", "propertyNames", "unevaluatedItems",
    "unevaluatedProperties", "format", "$ref", "$dynamicRef", "$recursiveRef", "$vocabulary",
    "$dynamicAnchor", "$recursiveAnchor", "contentSchema",
  ]

  /// Lowers the subschema `value` found at JSON Pointer `path`.
  mutating func lower(_ value: JSONValue, path: String) throws -> SchemaNode {
    switch value {
    case .bool(let b): return b ? .any : .never
    case .object(let members): return try lowerObject(members, path: path)
    default: throw SchemaError.invalidSchema("a schema must be an object or a boolean", path: path)
    }
  }

  /// Lowers a schema produced by merging.
  ///
  /// Merging inlines references, so a recursive schema would be inlined forever: nesting is capped.
  mutating func lowerMerged(_ schema: JSONValue, path: String) throws -> SchemaNode {
    guard mergeDepth < 12 else { throw SchemaError.unsupportedKeyword("allOf through recursive $ref", path: path) }
    mergeDepth += 1
    defer { mergeDepth -= 1 }
    return try lower(schema, path: path)
  }

  mutating func resolvePendingReferences() throws {
    while let (pointer, path) = pendingReferences.popLast() {
      guard let target = Self.resolve(pointer: pointer, in: document) else {
        throw SchemaError.unresolvedReference(pointer, path: path)
      }
      definitions[pointer] = try lower(target, path: String(pointer.dropFirst()))
    }
  }

  // MARK: - Schema objects

  private mutating func lowerObject(_ members: [JSONValue.Member], path: String) throws -> SchemaNode {
    var keywords: [String: JSONValue] = [:]
    for member in members {
      keywords[member.key] = member.value
      try checkKeyword(member.key, value: member.value, path: path)
    }
    let constraining = Set(keywords.keys).subtracting(Self.annotations).filter {
      Self.standardKeywords.contains($0) || !options.acceptsUnknownKeywords
    }

    // No constraint at all: a free value, which generation may fill with anything (to the
    // recursion limit), objects with members of their own included.
    if constraining.isEmpty { return .any }

    if keywords["unevaluatedProperties"] != nil {
      let closing = UnevaluatedClosing(document: document, options: options, path: path)
      return try lowerMerged(closing.eliminate(.object(members)), path: path)
    }

    let merging = SchemaMerging(document: document, path: path, options: options)
    func without(_ key: String) -> JSONValue { .object(members.filter { $0.key != key }) }

    if case .array(let parts)? = keywords["allOf"], !parts.isEmpty {
      return try lowerMerged(merging.merge([without("allOf")] + parts), path: path)
    }

    if let ref = keywords["$ref"] {
      guard case .string(let pointer) = ref else {
        throw SchemaError.invalidSchema("$ref must be a string", path: path + "/$ref")
      }
      // Up to draft 7 a `$ref` replaces its siblings; later drafts apply both.
      if constraining.subtracting(["$ref"]).isEmpty || refReplacesSiblings {
        return try reference(pointer, path: path + "/$ref")
      }
      return try lowerMerged(merging.merge([without("$ref"), .object([.init(key: "$ref", value: ref)])]), path: path)
    }

    if let rewritten = try conditionalParts(members, keywords, path: path) {
      return try lowerMerged(merging.merge(rewritten), path: path)
    }

    for combinator in ["anyOf", "oneOf"] {
      guard let branchesValue = keywords[combinator] else { continue }
      guard case .array(let branchValues) = branchesValue, !branchValues.isEmpty else {
        throw SchemaError.invalidSchema("\(combinator) must be a non-empty array", path: path)
      }
      // Constraints beside the combinator hold in every branch.
      let hasSiblings = !constraining.subtracting([combinator]).isEmpty
      var branches: [SchemaNode] = []
      for (i, b) in branchValues.enumerated() {
        let branch = hasSiblings ? try merging.merge([without(combinator), b]) : b
        let branchPath = "\(path)/\(combinator)/\(i)"
        branches.append(try hasSiblings ? lowerMerged(branch, path: branchPath) : lower(branch, path: branchPath))
      }
      if combinator == "oneOf", !SchemaDisjointness(definitions: definitions, document: self).areDisjoint(branches) {
        // Exactly one by construction: each branch without the values of the others.
        let negation = SchemaNegation(document: document, path: path)
        guard let negated = try? branchValues.map({ try negation.negate($0) }) else {
          throw SchemaError.unsupportedKeyword("oneOf (overlapping branches)", path: path)
        }
        let exclusive = branchValues.indices.map { i in
          JSONValue.object([
            .init(
              key: "allOf", value: .array([branchValues[i]] + negated.indices.filter { $0 != i }.map { negated[$0] }))
          ])
        }
        let rest = JSONValue.object(
          members.filter { $0.key != "oneOf" } + [.init(key: "anyOf", value: .array(exclusive))])
        do {
          return try lowerMerged(rest, path: path)
        } catch let error as SchemaError where error.unsupportedKeyword != nil {
          throw SchemaError.unsupportedKeyword("oneOf (overlapping branches)", path: path)
        }
      }
      return branches.count == 1 ? branches[0] : .anyOf(branches)
    }

    let typed = try lowerTypes(keywords, path: path)
    var choices: [JSONValue]?
    if let constValue = keywords["const"] { choices = [constValue] }
    if let enumValue = keywords["enum"] {
      guard case .array(let values) = enumValue else {
        throw SchemaError.invalidSchema("enum must be an array", path: path)
      }
      choices = (choices ?? values).filter { c in values.contains { $0.isJSONEqual(to: c) } }
    }
    guard let choices else { return typed }
    let validator = SchemaValidator(definitions: definitions)
    var kept: [SchemaNode] = []
    for c in choices where try validator.validate(c, against: typed) {
      let seen = kept.contains { if case .const(let k) = $0 { k.isJSONEqual(to: c) } else { false } }
      if !seen { kept.append(.const(c)) }
    }
    if kept.isEmpty { return .never }
    return kept.count == 1 ? kept[0] : .anyOf(kept)
  }

  /// `not`, `if`/`then`/`else` and the dependency keywords as parts of an `allOf` with the
  /// rest of the schema, written with the supported keywords (`SchemaNegation`); nil when the
  /// schema has none of them.
  ///
  /// - `not: S` is the complement of `S`.
  /// - `if: C, then: T, else: E` is `(C and T) or (not C and E)`.
  /// - `dependentRequired` (and `dependencies` with a list), for each trigger `t`: `t` absent,
  ///   or `t` present with the properties it needs; `dependentSchemas` (and `dependencies`
  ///   with a schema): `t` absent, or `t` present and the schema holding.
  private func conditionalParts(_ members: [JSONValue.Member], _ keywords: [String: JSONValue], path: String) throws
    -> [JSONValue]?
  {
    let conditional: Set<String> = [
      "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies",
    ]
    guard keywords.keys.contains(where: conditional.contains) else { return nil }
    let negation = SchemaNegation(document: document, path: path)
    var parts: [JSONValue] = [.object(members.filter { !conditional.contains($0.key) })]
    if let inner = keywords["not"] { parts.append(try negation.negate(inner)) }
    if let condition = keywords["if"] {
      let negated: JSONValue
      do {
        negated = try SchemaNegation(document: document, path: path + "/if").negate(condition)
      } catch SchemaError.unsupportedKeyword(let keyword, let at) {
        throw SchemaError.unsupportedKeyword("if (\(keyword))", path: at)
      }
      let then = keywords["then"] ?? .bool(true)
      let otherwise = keywords["else"] ?? .bool(true)
      parts.append(
        SchemaNegation.object(
          (
            "anyOf",
            .array([
              SchemaNegation.object(("allOf", .array([condition, then]))),
              SchemaNegation.object(("allOf", .array([negated, otherwise]))),
            ])
          )))
    }
    for key in ["dependentRequired", "dependentSchemas", "dependencies"] {
      guard let value = keywords[key] else { continue }
      guard case .object(let triggers) = value else {
        throw SchemaError.invalidSchema("\(key) must be an object", path: path + "/" + key)
      }
      for trigger in triggers {
        let name = JSONValue.string(trigger.key)
        let absent = SchemaNegation.object(("properties", .object([.init(key: trigger.key, value: .bool(false))])))
        let present: JSONValue
        switch trigger.value {
        case .array(let needed) where key != "dependentSchemas":
          present = SchemaNegation.object(("required", .array([name] + needed)))
        case .object, .bool:
          guard key != "dependentRequired" else {
            throw SchemaError.invalidSchema("dependentRequired values must be arrays", path: path + "/" + key)
          }
          present = SchemaNegation.object(
            ("allOf", .array([SchemaNegation.object(("required", .array([name]))), trigger.value])))
        default:
          throw SchemaError.invalidSchema("\(key) values must be arrays or schemas", path: path + "/" + key)
        }
        parts.append(SchemaNegation.object(("anyOf", .array([absent, present]))))
      }
    }
    return parts
  }

  /// Rejects keywords the engine cannot enforce, except for values that make them no-ops.
  private func checkKeyword(_ key: String, value: JSONValue, path: String) throws {
    let supported: Set<String> = [
      "type", "properties", "required", "additionalProperties", "enum", "const", "anyOf", "oneOf",
      "$ref", "pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum",
      "exclusiveMaximum", "minItems", "maxItems", "items", "prefixItems", "additionalItems",
      "format", "minProperties", "maxProperties", "allOf", "multipleOf", "not", "if", "then", "else",
      "dependentRequired", "dependentSchemas", "dependencies", "patternProperties", "propertyNames", "contains",
      "minContains", "maxContains", "unevaluatedProperties",
    ]
    if supported.contains(key) || Self.annotations.contains(key) || key.hasPrefix("x-") { return }
    switch (key, value) {
    case ("uniqueItems", .bool(false)), ("minProperties", .number(.zero)):
      return
    default:
      break
    }
    if !Self.standardKeywords.contains(key), options.acceptsUnknownKeywords { return }
    throw SchemaError.unsupportedKeyword(key, path: path)
  }

  private mutating func reference(_ pointer: String, path: String) throws -> SchemaNode {
    guard pointer.hasPrefix("#") else { throw SchemaError.unresolvedReference(pointer, path: path) }
    if !requestedReferences.contains(pointer) {
      requestedReferences.insert(pointer)
      pendingReferences.append((pointer, path))
    }
    return .ref(pointer)
  }

  /// The subschema named `name` by `$anchor` (or by a draft-4..7 `$id`/`id` of `#name`).
  private static func anchor(_ name: String, in value: JSONValue) -> JSONValue? {
    switch value {
    case .object(let members):
      if value["$anchor"] == .string(name) || value["$id"] == .string("#" + name) || value["id"] == .string("#" + name)
      {
        return value
      }
      for m in members where m.key != "enum" && m.key != "const" {
        if let found = anchor(name, in: m.value) { return found }
      }
      return nil
    case .array(let elements):
      for e in elements {
        if let found = anchor(name, in: e) { return found }
      }
      return nil
    default:
      return nil
    }
  }

  /// Follows a local reference such as `#/$defs/Node` (JSON Pointer, URI-escaped).
  static func resolve(pointer: String, in document: JSONValue) -> JSONValue? {
    let fragment = pointer.dropFirst().removingPercentEncoding ?? String(pointer.dropFirst())
    if fragment.isEmpty { return document }
    guard fragment.hasPrefix("/") else { return anchor(fragment, in: document) }
    var current = document
    for rawToken in fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
      let token = rawToken.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      switch current {
      case .object:
        guard let next = current[token] else { return nil }
        current = next
      case .array(let elements):
        guard let index = Int(token), elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }
}
