extension SchemaJSON {
  /// A schema's JSON that this dialect cannot read.
  struct DecodingFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// Reads a root schema and its `$defs`.
  ///
  /// `{"$ref":"#"}` refers to the root by its `title`: the root then joins the definitions
  /// under that name, as a recursive type's schema built in Swift has it. (When `$defs` also
  /// has a schema under the root's title, that name — `#` included — means the `$defs` one.)
  static func decode(_ json: GeneratedContent) throws -> (GenerationSchemaNode, SchemaDefinitions) {
    let rootName = try string("title", of: json)
    var definitions = SchemaDefinitions()
    if let defs = try member("$defs", of: json)?.orderedProperties {
      for (name, node) in defs {
        definitions.define(name, try decodeNode(node, rootName: rootName).node)
      }
    }
    let root = try decodeNode(json, rootName: rootName).node
    let referenced = definitions.ordered.reduce(root.referencedNames) { $0.union($1.node.referencedNames) }
    if let rootName, referenced.contains(rootName) {
      definitions.define(rootName, root)
    }
    return (root, definitions)
  }

  private static func member(_ key: String, of json: GeneratedContent) throws -> GeneratedContent? {
    guard case .structure(let properties, _) = json.kind else {
      throw DecodingFailure(description: "a schema must be a JSON object, found \(json.jsonString)")
    }
    return properties[key]
  }

  private static func string(_ key: String, of json: GeneratedContent) throws -> String? {
    guard let value = try member(key, of: json) else { return nil }
    guard case .string(let string) = value.kind else {
      throw DecodingFailure(description: "'\(key)' must be a string")
    }
    return string
  }

  private static func number(_ key: String, of json: GeneratedContent) throws -> Double? {
    guard let value = try member(key, of: json) else { return nil }
    guard case .number(let number) = value.kind else {
      throw DecodingFailure(description: "'\(key)' must be a number")
    }
    return number
  }

  private static func strings(_ key: String, of json: GeneratedContent) throws -> [String]? {
    guard let value = try member(key, of: json) else { return nil }
    guard let elements = value.arrayElements else {
      throw DecodingFailure(description: "'\(key)' must be an array of strings")
    }
    return try elements.map {
      guard case .string(let string) = $0.kind else {
        throw DecodingFailure(description: "'\(key)' must be an array of strings")
      }
      return string
    }
  }

  private static func required<T>(_ value: T?, _ key: String, in type: String) throws -> T {
    guard let value else {
      throw DecodingFailure(description: "an \(type) schema must have '\(key)'")
    }
    return value
  }

  /// Reads one node and the description written next to it; `rootName` is the root's `title`,
  /// which `{"$ref":"#"}` refers to.
  private static func decodeNode(_ json: GeneratedContent, rootName: String?) throws -> (
    node: GenerationSchemaNode, description: String?
  ) {
    let description = try string("description", of: json)
    let title = try string("title", of: json)
    if try member("allOf", of: json) != nil {
      throw DecodingFailure(description: "'allOf' is not supported")
    }
    if let reference = try string("$ref", of: json) {
      if reference == rootReference {
        guard let rootName else {
          throw DecodingFailure(description: "'$ref' '#' refers to the root, which has no 'title'")
        }
        return (.reference(rootName), description)
      }
      guard reference.hasPrefix(definitionsPrefix) else {
        throw DecodingFailure(description: "'$ref' must point into '#/$defs/', found '\(reference)'")
      }
      return (.reference(String(reference.dropFirst(definitionsPrefix.count))), description)
    }
    if let choices = try member("anyOf", of: json) {
      guard let elements = choices.arrayElements else {
        throw DecodingFailure(description: "'anyOf' must be an array")
      }
      let nodes = try elements.map { try decodeNode($0, rootName: rootName).node }
      return (.anyOf(UnionSchema(name: title, description: description, choices: nodes)), description)
    }
    if let constant = try string("const", of: json) {
      return (.string(StringSchema(name: title, description: description, constant: constant)), description)
    }
    guard let typeValue = try member("type", of: json) else {
      return (.any, description)
    }
    guard case .string(let type) = typeValue.kind else {
      throw DecodingFailure(description: "'type' must be a single type name")
    }
    switch type {
    case "object":
      return (try decodeObject(json, title: title, description: description, rootName: rootName), description)
    case "array":
      let items = try member("items", of: json).map { try decodeNode($0, rootName: rootName).node } ?? .any
      let array = ArraySchema(
        items: items, minimumCount: try number("minItems", of: json).map { Int($0) },
        maximumCount: try number("maxItems", of: json).map { Int($0) })
      return (.array(array), description)
    case "string":
      var schema = StringSchema(name: title, description: description)
      schema.choices = try strings("enum", of: json)
      if let pattern = try string("pattern", of: json) { schema.patterns = [pattern] }
      return (.string(schema), description)
    case "integer", "number":
      let bounds = NumberSchema(
        minimum: try number("minimum", of: json), maximum: try number("maximum", of: json))
      return (type == "integer" ? .integer(bounds) : .number(bounds), description)
    case "boolean":
      return (.boolean, description)
    case "null":
      return (.null, description)
    default:
      throw DecodingFailure(description: "unknown type '\(type)'")
    }
  }

  private static func decodeObject(
    _ json: GeneratedContent, title: String?, description: String?, rootName: String?
  ) throws -> GenerationSchemaNode {
    let name = try required(title, "title", in: "object")
    let properties = try required(try member("properties", of: json), "properties", in: "object")
    let order = try required(try strings("x-order", of: json), "x-order", in: "object")
    let requiredNames = Set(try required(try strings("required", of: json), "required", in: "object"))
    _ = try required(try member("additionalProperties", of: json), "additionalProperties", in: "object")
    let nodes = try order.map { key in
      guard let property = try member(key, of: properties) else {
        throw DecodingFailure(description: "'x-order' names '\(key)', which is not in 'properties'")
      }
      let (node, propertyDescription) = try decodeNode(property, rootName: rootName)
      return PropertySchema(
        name: key, description: propertyDescription, schema: node.withoutDescription,
        isOptional: !requiredNames.contains(key))
    }
    return .object(ObjectSchema(name: name, description: description, properties: nodes))
  }
}

extension GenerationSchemaNode {
  /// The node without the description that a property wrote into it (anonymous nodes only).
  fileprivate var withoutDescription: GenerationSchemaNode {
    switch self {
    case .string(var string) where string.name == nil:
      string.description = nil
      return .string(string)
    case .anyOf(var union) where union.name == nil:
      union.description = nil
      return .anyOf(union)
    default:
      return self
    }
  }
}
