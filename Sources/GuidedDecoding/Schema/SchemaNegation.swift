import JSON

/// Writes the complement of a schema as a schema of the supported subset: the schema that
/// admits exactly the values the given one rejects.
///
/// It is what makes `not`, the `else` of `if`/`then`/`else`, the absent side of `dependentSchemas`
/// and exclusive `oneOf` enforceable.
///
/// A schema is a conjunction of its keywords, so its complement is the union of their
/// violations (De Morgan), and each keyword is violated only by values of the types it
/// applies to: `{"minimum": 5}` is violated by numbers below 5 and by nothing else. A keyword
/// whose violation the engine cannot write (`pattern`, `multipleOf`, `format`, `items`,
/// `additionalProperties`, `integer` alone, an object or array constant) makes the whole
/// negation refused with `unsupportedKeyword("not (keyword)")` and the path.
struct SchemaNegation {
  let document: JSONValue
  let path: String

  static let allTypes = ["null", "boolean", "object", "array", "number", "string"]

  /// The complement of `schema`.
  /// - Throws: `SchemaError` for a part whose complement cannot be written.
  func negate(_ schema: JSONValue, depth: Int = 0) throws -> JSONValue {
    guard depth < 8 else { throw refused("a deeply nested or recursive schema") }
    switch schema {
    case .bool(let b): return .bool(!b)
    case .object(let members):
      var union: [JSONValue] = []
      for member in members {
        union += try violations(of: member, in: schema, depth: depth)
      }
      if union.isEmpty { return .bool(false) }
      return union.count == 1 ? union[0] : Self.object(("anyOf", .array(union)))
    default:
      throw SchemaError.invalidSchema("a schema must be an object or a boolean", path: path)
    }
  }

  private func refused(_ what: String) -> SchemaError {
    SchemaError.unsupportedKeyword("not (\(what))", path: path)
  }

  static func object(_ pairs: (String, JSONValue)...) -> JSONValue {
    .object(pairs.map { JSONValue.Member(key: $0.0, value: $0.1) })
  }

  private static func types(_ names: [String]) -> JSONValue {
    object(("type", .array(names.map { .string($0) })))
  }

  /// The schemas whose union is the set of values `member` rejects.
  private func violations(of member: JSONValue.Member, in schema: JSONValue, depth: Int) throws -> [JSONValue] {
    let key = member.key
    let value = member.value
    if SchemaLowering.annotations.contains(key) || key.hasPrefix("x-") || !SchemaLowering.standardKeywords.contains(key)
    {
      return []
    }
    switch key {
    case "type":
      var named: Set<String>
      switch value {
      case .string(let t): named = [t]
      case .array(let ts): named = Set(ts.compactMap { if case .string(let t) = $0 { t } else { nil } })
      default: throw SchemaError.invalidSchema("type must be a string or an array", path: path)
      }
      if named.contains("number") { named.insert("integer") }
      // Numbers with a fraction are no integers, and "no integer" has no schema here.
      if named.contains("integer"), !named.contains("number") { throw refused("type integer") }
      let others = Self.allTypes.filter { !named.contains($0) }
      return others.isEmpty ? [] : [Self.types(others)]
    case "const":
      return try complement(of: [value])
    case "enum":
      guard case .array(let values) = value else {
        throw SchemaError.invalidSchema("enum must be an array", path: path)
      }
      return try complement(of: values)
    case "required":
      guard case .array(let names) = value else {
        throw SchemaError.invalidSchema("required must be an array", path: path)
      }
      return names.compactMap { name in
        guard case .string(let n) = name else { return nil }
        return Self.object(("type", .string("object")), ("properties", Self.object((n, .bool(false)))))
      }
    case "properties":
      guard case .object(let properties) = value else {
        throw SchemaError.invalidSchema("properties must be an object", path: path)
      }
      var result: [JSONValue] = []
      for p in properties {
        let negated = try negate(p.value, depth: depth + 1)
        if negated == .bool(false) { continue }
        result.append(
          Self.object(
            ("type", .string("object")), ("required", .array([.string(p.key)])),
            ("properties", .object([.init(key: p.key, value: negated)]))))
      }
      return result
    case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
      switch value {
      case .number(let bound):
        let flipped: String
        switch key {
        case "minimum": flipped = "exclusiveMaximum"
        case "maximum": flipped = "exclusiveMinimum"
        case "exclusiveMinimum": flipped = "maximum"
        default: flipped = "minimum"
        }
        // Draft 4 spells exclusivity as a boolean beside the bound.
        if case .bool(true)? = schema[key == "minimum" ? "exclusiveMinimum" : "exclusiveMaximum"],
          key == "minimum" || key == "maximum"
        {
          return [Self.object(("type", .string("number")), (key == "minimum" ? "maximum" : "minimum", .number(bound)))]
        }
        return [Self.object(("type", .string("number")), (flipped, .number(bound)))]
      case .bool: return []  // draft 4's flag, read with its bound
      default: throw SchemaError.invalidSchema("\(key) must be a number", path: path)
      }
    case "minLength", "maxLength":
      return try countViolation(key, value, type: "string", low: "minLength", high: "maxLength")
    case "minItems", "maxItems":
      return try countViolation(key, value, type: "array", low: "minItems", high: "maxItems")
    case "minProperties", "maxProperties":
      return try countViolation(key, value, type: "object", low: "minProperties", high: "maxProperties")
    case "not":
      // Values the inner schema admits violate `not`.
      return [value]
    case "anyOf":
      guard case .array(let branches) = value else {
        throw SchemaError.invalidSchema("anyOf must be an array", path: path)
      }
      return [Self.object(("allOf", .array(try branches.map { try negate($0, depth: depth + 1) })))]
    case "allOf":
      guard case .array(let parts) = value else {
        throw SchemaError.invalidSchema("allOf must be an array", path: path)
      }
      return try parts.map { try negate($0, depth: depth + 1) }.filter { $0 != .bool(false) }
    case "$ref":
      guard case .string(let pointer) = value, let target = SchemaLowering.resolve(pointer: pointer, in: document)
      else { throw SchemaError.unresolvedReference("\(value)", path: path) }
      return [try negate(target, depth: depth + 1)]
    case "$defs", "definitions":
      return []
    case "uniqueItems" where value == .bool(false), "minContains", "maxContains":
      return []
    default:
      throw refused(key)
    }
  }

  /// Values of `type` whose count breaks a `low`/`high` bound.
  private func countViolation(_ key: String, _ value: JSONValue, type: String, low: String, high: String) throws
    -> [JSONValue]
  {
    guard case .number(let n) = value, n.isInteger, !n.isNegative else {
      throw SchemaError.invalidSchema("\(key) must be a non-negative integer", path: path)
    }
    if key == low {
      guard !n.isZero else { return [] }
      return [Self.object(("type", .string(type)), (high, .number(n.adding(ExactDecimal(-1)))))]
    }
    return [Self.object(("type", .string(type)), (low, .number(n.adding(ExactDecimal(1)))))]
  }

  /// Every value but `values`: the other types whole, and within each type the rest.
  private func complement(of values: [JSONValue]) throws -> [JSONValue] {
    var result: [JSONValue] = []
    var excludedTypes: Set<String> = []
    let strings = values.compactMap { if case .string(let s) = $0 { s } else { nil } }
    let numbers = Set(values.compactMap { if case .number(let n) = $0 { n } else { nil } }).sorted()
    let booleans = Set(values.compactMap { if case .bool(let b) = $0 { b } else { nil } })
    if values.contains(where: { if case .array = $0 { true } else if case .object = $0 { true } else { false } }) {
      throw refused("an object or array constant")
    }
    if !strings.isEmpty {
      excludedTypes.insert("string")
      result.append(
        Self.object(("type", .string("string")), ("pattern", .string(RegexComplement.pattern(excluding: strings)))))
    }
    if !numbers.isEmpty {
      excludedTypes.insert("number")
      excludedTypes.insert("integer")
      // The open intervals between the excluded numbers.
      var low: ExactDecimal?
      for n in numbers {
        var pairs: [(String, JSONValue)] = [("type", .string("number")), ("exclusiveMaximum", .number(n))]
        if let low { pairs.append(("exclusiveMinimum", .number(low))) }
        result.append(.object(pairs.map { JSONValue.Member(key: $0.0, value: $0.1) }))
        low = n
      }
      if let low { result.append(Self.object(("type", .string("number")), ("exclusiveMinimum", .number(low)))) }
    }
    if !booleans.isEmpty {
      excludedTypes.insert("boolean")
      if booleans.count == 1, let b = booleans.first { result.append(Self.object(("const", .bool(!b)))) }
    }
    if values.contains(.null) { excludedTypes.insert("null") }
    let others = Self.allTypes.filter { !excludedTypes.contains($0) }
    if !others.isEmpty { result.append(Self.types(others)) }
    return result
  }
}
