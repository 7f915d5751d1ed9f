/// Converts schemas to and from Apple's JSON Schema dialect.
///
/// - Object: `{"type":"object","title":…,"description"?,"properties":{…},"required":[…],
///   "additionalProperties":false,"x-order":[…]}`; optional properties are left out of
///   `required` but kept in `x-order`. `title`, `properties`, `required`, `additionalProperties`
///   and `x-order` are required when decoding, as Apple's decoder requires them.
/// - Integer/number: `{"type":"integer","minimum":0,"maximum":120}`; boolean; `{"type":"null"}`.
/// - String: `{"type":"string"}` with `"enum"` (named enumerations add `title`) or `"pattern"`;
///   a constant is `{"const":"…"}` with no type.
/// - Array: `{"type":"array","items":…,"minItems"?,"maxItems"?}`.
/// - Union: `{"anyOf":[…]}` (named unions add `title`). Reference: `{"$ref":"#/$defs/Name"}`,
///   with definitions in the root's `"$defs"`, sorted by name. A reference to the root's own
///   type (a recursive type) is `{"$ref":"#"}`, and the root is not repeated in `$defs`, as
///   Apple's encoder writes it (seen for a `Person` with `children: [Person]` in the schema
///   files of Apple's Python SDK). Any value (`GeneratedContent`): `{}`.
/// - A property's description goes into its schema (`{"$ref":…,"description":…}`).
/// - Decoding drops `multipleOf`, `minLength`, `maxLength` and `format` (as Apple's does) and
///   rejects `allOf`, `type` arrays and unknown types. Only the first of several patterns is
///   written (Apple's schemas never have more than one).
enum SchemaJSON {
  private typealias Builder = GeneratedContent.StructureBuilder
  static let definitionsPrefix = "#/$defs/"
  /// A reference to the whole schema: its root.
  static let rootReference = "#"

  // MARK: Encoding

  static func content(root: GenerationSchemaNode, definitions: SchemaDefinitions) -> GeneratedContent {
    // The root is in the definitions only when something refers to it (see `SchemaComposer`).
    let rootName = root.definitionName.flatMap { definitions[$0] == root ? $0 : nil }
    var builder = Builder()
    write(root, into: &builder, rootName: rootName)
    // Sorted, so equal schemas encode to equal text whatever order their types were met in.
    let hoisted = definitions.ordered.filter { $0.name != rootName }.sorted { $0.name < $1.name }
    if !hoisted.isEmpty {
      var defs = Builder()
      for (name, node) in hoisted {
        defs.set(name, content(node, rootName: rootName))
      }
      builder.set("$defs", GeneratedContent(kind: defs.kind))
    }
    return GeneratedContent(kind: builder.kind)
  }

  private static func content(
    _ node: GenerationSchemaNode, description: String? = nil, rootName: String?
  ) -> GeneratedContent {
    var builder = Builder()
    write(node, into: &builder, rootName: rootName)
    if let description { builder.set("description", value(description)) }
    return GeneratedContent(kind: builder.kind)
  }

  private static func value(_ string: String) -> GeneratedContent {
    GeneratedContent(kind: .string(string))
  }

  private static func value(_ number: Double) -> GeneratedContent {
    GeneratedContent(kind: .number(number))
  }

  private static func value(_ strings: [String]) -> GeneratedContent {
    GeneratedContent(kind: .array(strings.map(value)))
  }

  /// Writes `node`'s keywords; `rootName` is the name of the root's type when the schema refers
  /// to it (written `#`).
  private static func write(_ node: GenerationSchemaNode, into builder: inout Builder, rootName: String?) {
    switch node {
    case .object(let object):
      builder.set("type", value("object"))
      builder.set("title", value(object.name))
      if let description = object.description { builder.set("description", value(description)) }
      var properties = Builder()
      for property in object.properties {
        properties.set(
          property.name, content(property.schema, description: property.description, rootName: rootName))
      }
      builder.set("properties", GeneratedContent(kind: properties.kind))
      builder.set("required", value(object.properties.filter { !$0.isOptional }.map(\.name)))
      builder.set("additionalProperties", GeneratedContent(kind: .bool(false)))
      builder.set("x-order", value(object.properties.map(\.name)))
    case .array(let array):
      builder.set("type", value("array"))
      builder.set("items", content(array.items, rootName: rootName))
      if let minimum = array.minimumCount { builder.set("minItems", value(Double(minimum))) }
      if let maximum = array.maximumCount { builder.set("maxItems", value(Double(maximum))) }
    case .string(let string):
      if let constant = string.constant {
        builder.set("const", value(constant))
      } else {
        builder.set("type", value("string"))
      }
      if let name = string.name { builder.set("title", value(name)) }
      if let description = string.description { builder.set("description", value(description)) }
      if string.constant == nil, let choices = string.choices { builder.set("enum", value(choices)) }
      if let pattern = string.patterns.first { builder.set("pattern", value(pattern)) }
    case .integer(let bounds), .number(let bounds):
      builder.set("type", value(node == .integer(bounds) ? "integer" : "number"))
      if let minimum = bounds.minimum { builder.set("minimum", value(minimum)) }
      if let maximum = bounds.maximum { builder.set("maximum", value(maximum)) }
    case .boolean:
      builder.set("type", value("boolean"))
    case .null:
      builder.set("type", value("null"))
    case .anyOf(let union):
      if let name = union.name { builder.set("title", value(name)) }
      if let description = union.description { builder.set("description", value(description)) }
      builder.set("anyOf", GeneratedContent(kind: .array(union.choices.map { content($0, rootName: rootName) })))
    case .reference(let name):
      builder.set("$ref", value(name == rootName ? rootReference : definitionsPrefix + name))
    case .any:
      break
    }
  }
}
