import JSON

/// The JSON Schema of an object that `fm schema object` builds from its flags: properties in the
/// order given, each required unless `--optional`, nested objects made by dot notation
/// (`address.street`), and `x-order` on every object, so the order is kept by readers that sort
/// members.
struct SchemaObjectBuilder {
  /// A property: a schema of its own, or an object built here.
  enum Value {
    case schema(JSONValue)
    case object(SchemaObjectBuilder)
  }

  struct Property {
    let name: String
    var value: Value
    var description: String?
    var isArray = false
    var isOptional = false
  }

  var title: String?
  var description: String?
  private(set) var properties: [Property] = []

  init(title: String? = nil) { self.title = title }

  /// Adds the property at `path` (`street`, or `address.street` inside `address`, which is made
  /// an object here when it is not one yet).
  /// - Throws: `UsageError` for a name given twice, or a path through a property that is not an
  ///   object built here.
  mutating func add(_ value: Value, at path: [String]) throws {
    guard let first = path.first else { throw UsageError("a property needs a name") }
    let index = properties.firstIndex { $0.name == first }
    if path.count == 1 {
      guard index == nil else { throw UsageError("the property '\(first)' is given twice") }
      properties.append(Property(name: first, value: value))
      return
    }
    var object: SchemaObjectBuilder
    if let index {
      guard case .object(let existing) = properties[index].value else {
        throw UsageError("'\(first)' is not an object built here, so '\(path.joined(separator: "."))' cannot go in it")
      }
      object = existing
    } else {
      object = SchemaObjectBuilder()
    }
    try object.add(value, at: Array(path.dropFirst()))
    if let index {
      properties[index].value = .object(object)
    } else {
      properties.append(Property(name: first, value: .object(object)))
    }
  }

  /// Applies `change` to the property at `path`.
  /// - Throws: `UsageError` where there is none.
  mutating func modify(_ path: [String], _ change: (inout Property) throws -> Void) throws {
    guard let first = path.first, let index = properties.firstIndex(where: { $0.name == first }) else {
      throw UsageError("no property '\(path.joined(separator: "."))' to modify")
    }
    if path.count == 1 { return try change(&properties[index]) }
    guard case .object(var object) = properties[index].value else {
      throw UsageError("'\(first)' is not an object built here")
    }
    try object.modify(Array(path.dropFirst()), change)
    properties[index].value = .object(object)
  }

  /// The object's schema.
  var schema: JSONValue {
    var members: [JSONValue.Member] = [.init(key: "type", value: .string("object"))]
    if let title { members.append(.init(key: "title", value: .string(title))) }
    if let description { members.append(.init(key: "description", value: .string(description))) }
    members.append(
      .init(key: "properties", value: .object(properties.map { .init(key: $0.name, value: Self.schema(of: $0)) })))
    members.append(
      .init(key: "required", value: .array(properties.filter { !$0.isOptional }.map { .string($0.name) })))
    members.append(.init(key: "x-order", value: .array(properties.map { .string($0.name) })))
    members.append(.init(key: "additionalProperties", value: .bool(false)))
    return .object(members)
  }

  private static func schema(of property: Property) -> JSONValue {
    var schema: JSONValue =
      switch property.value {
      case .schema(let value): value
      case .object(let object): object.schema
      }
    if property.isArray {
      schema = .object([.init(key: "type", value: .string("array")), .init(key: "items", value: schema)])
    }
    guard let description = property.description, case .object(var members) = schema else { return schema }
    members.removeAll { $0.key == "description" }
    members.insert(.init(key: "description", value: .string(description)), at: min(1, members.count))
    return .object(members)
  }
}
