import JSON

/// Combines schema objects that must all hold (`allOf`, and siblings of `anyOf`/`oneOf`/
/// `$ref`) into one schema object, keyword by keyword.
///
/// Only combinations with an exact meaning are merged: bounds tighten, `required` and
/// `type` combine, `enum` intersects, same-named `properties` and `items` nest as `allOf`,
/// two `anyOf`s multiply out. A part that closes its object (`additionalProperties`) first
/// names every property the other parts declare, with its own `additionalProperties` as
/// their schema, which is what it would have checked them against: so `properties` can be
/// merged by name and `additionalProperties` as an `allOf` without changing meaning.
/// Anything that would change meaning (two different patterns, `additionalItems` on one
/// side and new `items` on the other) is refused with `unsupportedKeyword("allOf …")`.
///
/// Each part's own `unevaluatedProperties` sees only that part, so it is rewritten first
/// (`UnevaluatedClosing`).
struct SchemaMerging {
  let document: JSONValue
  let path: String
  let options: JSONSchemaParser.Options

  /// Most branches two `anyOf`s may multiply into.
  static let combinationLimit = 64

  /// Merges `parts` (schema objects or booleans) into one schema.
  /// - Throws: `SchemaError`.
  func merge(_ parts: [JSONValue]) throws -> JSONValue {
    var result: [JSONValue.Member] = []
    let parts = Self.closingOverOthers(
      try parts.map { try Self.withoutLoneBranches(inline(closing.eliminate($0), depth: 0)) })
    for part in parts {
      switch part {
      case .bool(true): continue
      case .bool(false): return .bool(false)
      case .object(let members):
        for m in members { try add(m, to: &result) }
      default: throw SchemaError.invalidSchema("allOf parts must be schemas", path: path)
      }
    }
    try checkInteractions(result, parts: parts)
    return .object(result)
  }

  /// Replaces a `$ref` by the referenced schema merged with the ref's siblings.
  private func inline(_ schema: JSONValue, depth: Int) throws -> JSONValue {
    guard case .object(let members) = schema, case .string(let pointer)? = schema["$ref"] else { return schema }
    // Why: a schema that refers to itself through allOf cannot be flattened.
    guard depth < 8 else { throw SchemaError.unsupportedKeyword("allOf through recursive $ref", path: path) }
    guard let target = SchemaLowering.resolve(pointer: pointer, in: document) else {
      throw SchemaError.unresolvedReference(pointer, path: path)
    }
    let siblings = JSONValue.object(members.filter { $0.key != "$ref" })
    return try merge([try inline(closing.eliminate(target), depth: depth + 1), siblings])
  }

  /// Rewrites a part's own `unevaluatedProperties` before it is merged.
  ///
  /// A `$ref` target's is rewritten before the reference is inlined, so that it sees the target's
  /// own `$ref` too.
  private var closing: UnevaluatedClosing { UnevaluatedClosing(document: document, options: options, path: path) }

  /// `part` without a `then` or `else` that has no `if` beside it: those apply only with the
  /// `if` of their own schema object, so merged next to another part's `if` they would change
  /// meaning; alone they mean nothing.
  static func withoutLoneBranches(_ part: JSONValue) -> JSONValue {
    guard case .object(let members) = part, part["if"] == nil, part["then"] != nil || part["else"] != nil else {
      return part
    }
    return .object(members.filter { $0.key != "then" && $0.key != "else" })
  }

  /// Each part with an `additionalProperties` schema, given the property names the other
  /// parts declare (and it does not) with that schema: the part means the same, and every
  /// name any part declares is now declared by every part that closes its object.
  static func closingOverOthers(_ parts: [JSONValue]) -> [JSONValue] {
    let names = parts.flatMap { part -> [String] in
      guard case .object(let properties)? = part["properties"] else { return [] }
      return properties.map(\.key)
    }
    return parts.map { part in
      guard case .object(var members) = part, let closer = part["additionalProperties"], closer != .bool(true),
        part["patternProperties"] == nil
      else { return part }
      var declared: [JSONValue.Member] = []
      if case .object(let own)? = part["properties"] { declared = own }
      var added = false
      for name in names where !declared.contains(where: { $0.key.hasSameScalars(as: name) }) {
        declared.append(.init(key: name, value: closer))
        added = true
      }
      guard added else { return part }
      if let i = members.firstIndex(where: { $0.key == "properties" }) {
        members[i].value = .object(declared)
      } else {
        members.append(.init(key: "properties", value: .object(declared)))
      }
      return .object(members)
    }
  }

  private func conflict(_ key: String) -> SchemaError {
    SchemaError.unsupportedKeyword("allOf with two '\(key)'", path: path)
  }

  private func add(_ m: JSONValue.Member, to result: inout [JSONValue.Member]) throws {
    guard let i = result.firstIndex(where: { $0.key == m.key }) else {
      result.append(m)
      return
    }
    let old = result[i].value
    if old.isJSONEqual(to: m.value) { return }
    let merged: JSONValue
    switch m.key {
    case _ where SchemaLowering.annotations.contains(m.key) || m.key.hasPrefix("x-"):
      return
    case "type":
      merged = try intersectTypes(old, m.value)
    case "required":
      guard case .array(let a) = old, case .array(let b) = m.value else { throw conflict(m.key) }
      merged = .array(a + b.filter { x in !a.contains(x) })
    case "enum", "const":
      let a = m.key == "enum" ? (old.arrayElements ?? []) : [old]
      let b = m.key == "enum" ? (m.value.arrayElements ?? []) : [m.value]
      let both = a.filter { x in b.contains { $0.isJSONEqual(to: x) } }
      result[i] = .init(key: "enum", value: .array(both))
      return
    case "minimum", "minLength", "minItems", "minProperties", "maximum", "maxLength", "maxItems", "maxProperties",
      "exclusiveMinimum", "exclusiveMaximum":
      guard case .number(let a) = old, case .number(let b) = m.value else { throw conflict(m.key) }
      merged = .number(m.key.hasPrefix("min") || m.key == "exclusiveMinimum" ? max(a, b) : min(a, b))
    case "properties", "patternProperties":
      // A name (a pattern: each applies on its own) in two parts takes both schemas.
      guard case .object(let a) = old, case .object(let b) = m.value else { throw conflict(m.key) }
      let byName = m.key == "properties"
      var combined = a
      for p in b {
        if let j = combined.firstIndex(where: { byName ? $0.key.hasSameScalars(as: p.key) : $0.key == p.key }) {
          combined[j].value = .object([.init(key: "allOf", value: .array([combined[j].value, p.value]))])
        } else {
          combined.append(p)
        }
      }
      merged = .object(combined)
    case "items", "additionalProperties", "additionalItems":
      guard old.isSchemaObjectOrBool, m.value.isSchemaObjectOrBool else { throw conflict(m.key) }
      merged = .object([.init(key: "allOf", value: .array([old, m.value]))])
    case "$defs", "definitions":
      return
    case "anyOf":
      // (a or b) and (c or d) = ac or ad or bc or bd.
      guard case .array(let a) = old, case .array(let b) = m.value else { throw conflict(m.key) }
      guard a.count * b.count <= Self.combinationLimit else {
        throw SchemaError.unsupportedKeyword(
          "allOf of 'anyOf's with more than \(Self.combinationLimit) combinations", path: path)
      }
      merged = .array(a.flatMap { x in b.map { y in JSONValue.object([.init(key: "allOf", value: .array([x, y]))]) } })
    case "not":
      // not a and not b = not (a or b).
      merged = .object([.init(key: "anyOf", value: .array([old, m.value]))])
    default:
      throw conflict(m.key)
    }
    result[i].value = merged
  }

  private func intersectTypes(_ a: JSONValue, _ b: JSONValue) throws -> JSONValue {
    func names(_ v: JSONValue) throws -> Set<String> {
      switch v {
      case .string(let s): return [s]
      case .array(let xs): return Set(xs.compactMap { if case .string(let s) = $0 { s } else { nil } })
      default: throw conflict("type")
      }
    }
    var x = try names(a)
    var y = try names(b)
    // `integer` is a subset of `number`.
    if x.contains("number") { x.insert("integer") }
    if y.contains("number") { y.insert("integer") }
    return .array(x.intersection(y).sorted().map { .string($0) })
  }

  /// Keywords whose meaning depends on siblings in the same schema object must come from
  /// the same part, or merging would change what they mean.
  private func checkInteractions(_ merged: [JSONValue.Member], parts: [JSONValue]) throws {
    // `additionalProperties` needs no check: `closingOverOthers` made it exact.
    let pairs = [("additionalItems", "items"), ("items", "prefixItems")]
    for (closer, scope) in pairs {
      let closers = parts.filter { $0[closer] != nil && !($0[closer] == .bool(true)) }
      guard !closers.isEmpty else { continue }
      let scopes = parts.filter { $0[scope] != nil }
      if scopes.contains(where: { part in !closers.contains(part) }) || closers.count > 1 {
        throw SchemaError.unsupportedKeyword("allOf with '\(closer)' and another part's '\(scope)'", path: path)
      }
    }
    // `minContains`/`maxContains` count the `contains` of their own part.
    for bound in ["minContains", "maxContains"] {
      if parts.contains(where: { $0[bound] != nil && $0["contains"] == nil }),
        parts.contains(where: { $0["contains"] != nil })
      {
        throw SchemaError.unsupportedKeyword("allOf with '\(bound)' and another part's 'contains'", path: path)
      }
    }
    // Patterns apply to each member whatever the part, except that `additionalProperties`
    // skips the names its own object's properties and patterns match: a part that closes its
    // object must then be the only one with properties or patterns.
    if parts.contains(where: { $0["patternProperties"] != nil }) {
      for closer in parts where closer["additionalProperties"].map({ $0 != .bool(true) }) ?? false {
        let others = parts.filter { $0 != closer }
        if others.contains(where: { $0["properties"] != nil || $0["patternProperties"] != nil }) {
          throw SchemaError.unsupportedKeyword("allOf with 'patternProperties' and 'additionalProperties'", path: path)
        }
      }
    }
  }
}

extension JSONValue {
  var arrayElements: [JSONValue]? {
    if case .array(let xs) = self { return xs }
    return nil
  }

  var isSchemaObjectOrBool: Bool {
    switch self {
    case .object, .bool: return true
    default: return false
    }
  }
}
