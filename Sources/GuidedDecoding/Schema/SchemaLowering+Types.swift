import JSON

/// Lowering of the type-specific keywords (`type` and the keywords for each type).
extension SchemaLowering {
  /// Formats JSON Schema defines; those not in `StringFormat` are refused, never ignored.
  static let standardFormats: Set<String> = [
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6",
    "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer",
    "relative-json-pointer", "regex",
  ]

  /// The node for the `type` keyword and the keywords that constrain each type.
  ///
  /// Without `type`, JSON Schema admits every type, each still subject to its own keywords.
  mutating func lowerTypes(_ keywords: [String: JSONValue], path: String) throws -> SchemaNode {
    var types: [String]
    switch keywords["type"] {
    case nil: types = ["null", "boolean", "object", "array", "number", "string"]
    case .string(let t)?: types = [t]
    case .array(let values)?:
      types = try values.map {
        guard case .string(let t) = $0 else { throw SchemaError.invalidSchema("type must name types", path: path) }
        return t
      }
    default: throw SchemaError.invalidSchema("type must be a string or an array", path: path)
    }
    if types.contains("number") { types.removeAll { $0 == "integer" } }
    var nodes: [SchemaNode] = []
    for type in types {
      let node: SchemaNode
      switch type {
      case "null": node = .null
      case "boolean": node = .boolean
      case "integer": node = .integer(try numberBounds(keywords, path: path))
      case "number": node = .number(try numberBounds(keywords, path: path))
      case "string": node = .string(try stringConstraints(keywords, path: path))
      case "array": node = .array(try arrayConstraints(keywords, path: path))
      case "object": node = .object(try objectConstraints(keywords, path: path))
      default: throw SchemaError.invalidSchema("unknown type '\(type)'", path: path + "/type")
      }
      if node != .never, !nodes.contains(node) { nodes.append(node) }
    }
    if nodes.isEmpty { return .never }
    return nodes.count == 1 ? nodes[0] : .anyOf(nodes)
  }

  private func number(_ keywords: [String: JSONValue], _ key: String, path: String) throws -> ExactDecimal? {
    switch keywords[key] {
    case nil: return nil
    case .number(let n)?: return n
    default: throw SchemaError.invalidSchema("\(key) must be a number", path: path + "/" + key)
    }
  }

  func count(_ keywords: [String: JSONValue], _ key: String, path: String) throws -> Int? {
    guard let n = try number(keywords, key, path: path) else { return nil }
    guard n.isInteger, !n.isNegative, n.magnitudeOrder <= 9, let value = Int(n.jsonText) else {
      throw SchemaError.invalidSchema("\(key) must be a small non-negative integer", path: path + "/" + key)
    }
    return value
  }

  func numberBounds(_ keywords: [String: JSONValue], path: String) throws -> NumberBounds {
    var bounds = NumberBounds(
      minimum: try number(keywords, "minimum", path: path), maximum: try number(keywords, "maximum", path: path))
    // Draft 4 spells exclusivity as a boolean beside minimum/maximum; later drafts as a number.
    switch keywords["exclusiveMinimum"] {
    case .bool(let b)?: bounds.minimumIsExclusive = b && bounds.minimum != nil
    case .number(let n)?:
      if bounds.minimum.map({ n >= $0 }) ?? true {
        bounds.minimum = n
        bounds.minimumIsExclusive = true
      }
    case nil: break
    default: throw SchemaError.invalidSchema("exclusiveMinimum must be a number", path: path)
    }
    switch keywords["exclusiveMaximum"] {
    case .bool(let b)?: bounds.maximumIsExclusive = b && bounds.maximum != nil
    case .number(let n)?:
      if bounds.maximum.map({ n <= $0 }) ?? true {
        bounds.maximum = n
        bounds.maximumIsExclusive = true
      }
    case nil: break
    default: throw SchemaError.invalidSchema("exclusiveMaximum must be a number", path: path)
    }
    if let step = try number(keywords, "multipleOf", path: path) {
      guard !step.isNegative, !step.isZero else {
        throw SchemaError.invalidSchema("multipleOf must be above zero", path: path + "/multipleOf")
      }
      guard ExactDecimal.Divisor(step) != nil else {
        throw SchemaError.unsupportedKeyword("multipleOf (more than 15 digits)", path: path + "/multipleOf")
      }
      bounds.multipleOf = step
    }
    return bounds
  }

  func stringConstraints(_ keywords: [String: JSONValue], path: String) throws -> StringConstraints {
    var constraints = StringConstraints(
      minLength: try count(keywords, "minLength", path: path) ?? 0,
      maxLength: try count(keywords, "maxLength", path: path))
    switch keywords["pattern"] {
    case nil: break
    case .string(let p)?:
      // Why: an unsupported pattern must fail at parse time, naming the pattern.
      _ = try RegexParser.parse(p)
      constraints.pattern = p
    default: throw SchemaError.invalidSchema("pattern must be a string", path: path + "/pattern")
    }
    switch keywords["format"] {
    case nil: break
    case .string(let f)?:
      if let format = StringFormat(rawValue: f) {
        constraints.format = format
      } else if Self.standardFormats.contains(f) || !options.acceptsUnknownKeywords {
        throw SchemaError.unsupportedKeyword("format:\(f)", path: path + "/format")
      }
    // Otherwise a format no specification defines: an annotation, like other unknown keywords.
    default: throw SchemaError.invalidSchema("format must be a string", path: path + "/format")
    }
    if let max = constraints.maxLength, max < constraints.minLength {
      throw SchemaError.unsatisfiable("minLength > maxLength at \(path)")
    }
    return constraints
  }

  mutating func arrayConstraints(_ keywords: [String: JSONValue], path: String) throws -> ArrayConstraints {
    var constraints = ArrayConstraints(
      minItems: try count(keywords, "minItems", path: path) ?? 0,
      maxItems: try count(keywords, "maxItems", path: path))
    if case .array(let prefix)? = keywords["prefixItems"] {
      constraints.prefixItems = try prefix.enumerated().map { try lower($1, path: "\(path)/prefixItems/\($0)") }
    } else if keywords["prefixItems"] != nil {
      throw SchemaError.invalidSchema("prefixItems must be an array", path: path)
    }
    switch keywords["items"] {
    case nil: constraints.items = .any
    case .array(let tuple)?:
      // Drafts 4–7: a tuple `items` array, with `additionalItems` for the rest.
      constraints.prefixItems = try tuple.enumerated().map { try lower($1, path: "\(path)/items/\($0)") }
      if let additional = keywords["additionalItems"] {
        let node = try lower(additional, path: path + "/additionalItems")
        constraints.items = node == .never ? nil : node
      } else {
        constraints.items = .any
      }
    case let items?:
      let node = try lower(items, path: path + "/items")
      constraints.items = node == .never ? nil : node
    }
    constraints.contains = try containsConstraint(keywords, constraints, path: path)
    return constraints
  }

  mutating func objectConstraints(_ keywords: [String: JSONValue], path: String) throws -> ObjectConstraints {
    var properties: [ObjectConstraints.Property] = []
    let patterns = try patternEntries(keywords, path: path)
    let nameConstraints = try propertyNames(keywords, path: path)
    if let value = keywords["properties"] {
      guard case .object(let members) = value else {
        throw SchemaError.invalidSchema("properties must be an object", path: path + "/properties")
      }
      for m in members {
        let node = try memberSchema(
          named: m.key, declared: m.value, patterns: patterns, names: nameConstraints, otherwise: nil,
          path: "\(path)/properties/\(Self.escapedToken(m.key))")
        properties.append(.init(name: m.key, schema: node, isRequired: false))
      }
    }
    if case .array(let order)? = keywords["x-order"] {
      // Apple's dialect states the generation order explicitly.
      let names = order.compactMap { if case .string(let s) = $0 { s } else { nil } }
      properties.sort { a, b in
        (names.firstIndex(of: a.name) ?? Int.max) < (names.firstIndex(of: b.name) ?? Int.max)
      }
    }
    var additional: SchemaNode? = options.closesObjectsByDefault ? nil : .any
    var implicit = !options.closesObjectsByDefault
    if let value = keywords["additionalProperties"] {
      let node = try lower(value, path: path + "/additionalProperties")
      additional = node == .never ? nil : node
      implicit = false
    }
    if let value = keywords["required"] {
      guard case .array(let names) = value else {
        throw SchemaError.invalidSchema("required must be an array", path: path + "/required")
      }
      for case .string(let name) in names {
        if let i = properties.firstIndex(where: { $0.name.hasSameScalars(as: name) }) {
          properties[i].isRequired = true
        } else {
          // A required member that `properties` does not describe takes the schemas of the
          // patterns it matches, else the additionalProperties schema; if there is none, no
          // object can be valid (the compiler then prunes this object type).
          let node = try memberSchema(
            named: name, declared: nil, patterns: patterns, names: nameConstraints, otherwise: additional,
            path: path + "/required")
          properties.append(.init(name: name, schema: node, isRequired: true))
        }
      }
    }
    return ObjectConstraints(
      properties: properties, additionalProperties: additional, additionalPropertiesAreImplicit: implicit,
      minProperties: try count(keywords, "minProperties", path: path) ?? 0,
      maxProperties: try count(keywords, "maxProperties", path: path),
      patternProperties: patterns.map { .init(pattern: $0.pattern, schema: $0.node) },
      patternOverlaps: try patternOverlaps(patterns, path: path), propertyNames: nameConstraints)
  }
}
