import Foundation
import GuidedDecoding
import JSON

extension SchemaDocument {
  /// The guided-decoding form of a schema in Apple's dialect: properties in declaration order,
  /// every guide kept.
  /// - Throws: `LanguageModelError.unsupportedGenerationGuide` for a guide guided decoding cannot
  ///   enforce (a pattern whose source is unknown, two patterns on one string).
  init(root: GenerationSchemaNode, definitions: SchemaDefinitions) throws {
    if let pattern = GenerationSchema.unsupportedPatterns(root: root, definitions: definitions).first {
      throw Self.unsupported("The pattern \(pattern) cannot be enforced during generation.")
    }
    var lowered: [String: GuidedDecoding.SchemaNode] = [:]
    for (name, node) in definitions.ordered { lowered[name] = try Self.node(node) }
    self.init(root: try Self.node(root), definitions: lowered)
  }

  private static func unsupported(_ message: String) -> LanguageModelError {
    .unsupportedGenerationGuide(.init(schemaName: nil, debugDescription: message))
  }

  private static func node(_ node: GenerationSchemaNode) throws -> GuidedDecoding.SchemaNode {
    switch node {
    case .object(let object):
      let properties = try object.properties.map { property in
        GuidedDecoding.ObjectConstraints.Property(
          name: property.name, schema: try Self.node(property.schema), isRequired: !property.isOptional)
      }
      return .object(GuidedDecoding.ObjectConstraints(properties: properties, additionalProperties: nil))
    case .array(let array):
      return .array(
        GuidedDecoding.ArrayConstraints(
          items: try Self.node(array.items), minItems: array.minimumCount ?? 0, maxItems: array.maximumCount))
    case .string(let string):
      if let constant = string.constant { return .const(.string(constant)) }
      if let choices = string.choices { return .anyOf(choices.map { .const(.string($0)) }) }
      guard string.patterns.count <= 1 else {
        throw Self.unsupported("A string can follow one pattern during generation, not \(string.patterns.count).")
      }
      return .string(GuidedDecoding.StringConstraints(pattern: string.patterns.first))
    case .integer(let bounds):
      return .integer(Self.bounds(bounds))
    case .number(let bounds):
      return .number(Self.bounds(bounds))
    case .boolean: return .boolean
    case .null: return .null
    case .anyOf(let union): return .anyOf(try union.choices.map(Self.node))
    case .reference(let name): return .ref(name)
    case .any: return .any
    }
  }

  private static func bounds(_ schema: NumberSchema) -> NumberBounds {
    NumberBounds(
      minimum: schema.minimum.flatMap { ExactDecimal(jsonText: Self.decimalText($0)) },
      maximum: schema.maximum.flatMap { ExactDecimal(jsonText: Self.decimalText($0)) })
  }

  /// The shortest decimal text of a double (`1.5`, `100`), which ExactDecimal reads exactly.
  private static func decimalText(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
  }
}
