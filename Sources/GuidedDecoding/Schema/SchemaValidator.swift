import JSON

/// Checks a JSON value against a `SchemaNode` (semantic validation, not generation).
///
/// The parser uses it to keep only the `enum` members that also satisfy their sibling
/// keywords; tests use it as an oracle.
public struct SchemaValidator: Sendable {
  public let definitions: [String: SchemaNode]
  /// Whether `format` only annotates (drafts 2019-09 and 2020-12) and is not checked.
  public let formatsAreAnnotations: Bool

  public init(definitions: [String: SchemaNode], formatsAreAnnotations: Bool = false) {
    self.definitions = definitions
    self.formatsAreAnnotations = formatsAreAnnotations
  }

  /// A validator for `document`'s definitions and format semantics.
  public init(document: SchemaDocument) {
    self.init(definitions: document.definitions, formatsAreAnnotations: document.formatsAreAnnotations)
  }

  /// Whether `value` satisfies `node`.
  /// - Throws: `SchemaError` for an unsupported pattern or an unresolved reference.
  public func validate(_ value: JSONValue, against node: SchemaNode, depth: Int = 0) throws -> Bool {
    guard depth < 256 else { throw SchemaError.unsatisfiable("reference cycle without progress") }
    switch (node, value) {
    case (.any, _): return true
    case (.never, _): return false
    case (.null, .null): return true
    case (.boolean, .bool): return true
    case (.integer(let bounds), .number(let n)): return n.isInteger && bounds.contains(n)
    case (.number(let bounds), .number(let n)): return bounds.contains(n)
    case (.string(let c), .string(let s)): return try validate(s, c)
    case (.const(let expected), _): return expected.isJSONEqual(to: value)
    case (.anyOf(let branches), _):
      return try branches.contains { try validate(value, against: $0, depth: depth + 1) }
    case (.ref(let name), _):
      guard let target = definitions[name] else { throw SchemaError.unresolvedReference(name, path: "") }
      return try validate(value, against: target, depth: depth + 1)
    case (.array(let c), .array(let elements)):
      guard elements.count >= c.minItems, elements.count <= (c.maxItems ?? Int.max) else { return false }
      for (i, e) in elements.enumerated() {
        let schema = i < c.prefixItems.count ? c.prefixItems[i] : c.items
        guard let schema, try validate(e, against: schema, depth: depth + 1) else { return false }
      }
      guard let contains = c.contains else { return true }
      let matches = try elements.filter { try validate($0, against: contains.schema, depth: depth + 1) }.count
      return matches >= contains.minimum && matches <= (contains.maximum ?? Int.max)
    case (.object(let c), .object(let members)):
      guard members.count >= c.minProperties, members.count <= (c.maxProperties ?? Int.max) else { return false }
      for p in c.properties where p.isRequired && !members.contains(where: { $0.key.hasSameScalars(as: p.name) }) {
        return false
      }
      for m in members {
        if let names = c.propertyNames, try !validate(m.key, names) { return false }
        guard let schemas = try schemas(of: m.key, in: c) else { return false }
        for schema in schemas where try !validate(m.value, against: schema, depth: depth + 1) { return false }
      }
      return true
    default:
      return false
    }
  }

  /// The schemas a member named `name` must satisfy: a declared property's (which holds its
  /// patterns' already), else those of the patterns it matches, else `additionalProperties`;
  /// `nil` when no member of that name is allowed.
  private func schemas(of name: String, in c: ObjectConstraints) throws -> [SchemaNode]? {
    if let declared = c.properties.first(where: { $0.name.hasSameScalars(as: name) }) { return [declared.schema] }
    let matched = try c.patternProperties.filter { try CodePointAutomaton.cached(pattern: $0.pattern).matches(name) }
    if !matched.isEmpty { return matched.map(\.schema) }
    return c.additionalProperties.map { [$0] }
  }

  private func validate(_ s: String, _ c: StringConstraints) throws -> Bool {
    let length = s.unicodeScalars.count
    let format = formatsAreAnnotations ? nil : c.format
    let maximum = [c.maxLength, format?.maximumLength].compactMap { $0 }.min()
    guard length >= c.minLength, length <= (maximum ?? Int.max) else { return false }
    for p in [c.pattern, format?.pattern].compactMap({ $0 }) where try !CodePointAutomaton.cached(pattern: p).matches(s)
    {
      return false
    }
    return true
  }
}
