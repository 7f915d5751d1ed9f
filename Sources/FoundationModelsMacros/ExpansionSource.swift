import SwiftSyntax

/// Pieces of source text that the `@Generable` expansions share.
///
/// Expansions name library types with the module (`FoundationModels.GeneratedContent`) so that
/// a type of the same name in the user's module cannot capture them.
enum ExpansionSource {
  static let content = "FoundationModels.GeneratedContent"
  static let schema = "FoundationModels.GenerationSchema"
  static let convertibleToContent = "FoundationModels.ConvertibleToGeneratedContent"

  /// A `GenerationSchema.Property(…)` expression for one property.
  ///
  /// Guides written as `.name(…)` are given the property's guide type
  /// (`[.range(1...9)] as [GenerationGuide<Int>]`), so that a guide that does not fit the
  /// property is reported at the guide ("requires the types 'String' and 'Int' be
  /// equivalent") rather than as a mismatch of the whole initializer. Other guides (regexes)
  /// are left to overload resolution.
  static func schemaProperty(
    key: String, description: String? = nil, type: PropertyType, guides: [ExprSyntax] = []
  ) -> String {
    var arguments = "name: \(stringLiteral(key))"
    if let description { arguments += ", description: \(description)" }
    arguments += ", type: \(type.source).self"
    if !guides.isEmpty {
      arguments += ", guides: [\(guides.map(\.trimmedDescription).joined(separator: ", "))]"
      if guides.allSatisfy(\.isImplicitMember) {
        arguments += " as [FoundationModels.GenerationGuide<\(type.wrapped.trimmedDescription)>]"
      }
    }
    return "\(schema).Property(\(arguments))"
  }

  /// A `GenerationSchema(…)` expression with the given properties.
  static func objectSchema(arguments: String, properties: [String]) -> String {
    let list = properties.isEmpty ? "[]" : "[\n\(properties.map { "\($0),\n" }.joined())]"
    return "\(schema)(\n\(arguments),\nproperties: \(list)\n)"
  }

  /// Statements that return the generated content of an object, properties in order.
  ///
  /// An absent optional is left out, or written as `null` when `representsNilExplicitly`
  /// (26.4's `representNilExplicitlyInGeneratedContent: true`).
  static func returnContent(_ entries: [ContentEntry], representsNilExplicitly: Bool) -> String {
    let omitsNil = !representsNilExplicitly && entries.contains(where: \.isOptional)
    guard omitsNil else {
      let pairs = entries.map { "\(stringLiteral($0.key)): \($0.value)" }
      return "return \(content)(properties: [\(pairs.isEmpty ? ":" : pairs.joined(separator: ", "))])"
    }
    var lines = ["var properties: [(Swift.String, any \(convertibleToContent))] = []"]
    for entry in entries {
      let append = "properties.append((\(stringLiteral(entry.key)), "
      if entry.isOptional {
        lines.append("if let value = \(entry.value) {\n\(append)value))\n}")
      } else {
        lines.append("\(append)\(entry.value)))")
      }
    }
    lines.append("return \(content)(properties: properties, uniquingKeysWith: { _, last in last })")
    return lines.joined(separator: "\n")
  }

  /// A `throw` of `GenerationError.decodingFailure` whose description is `message`, an
  /// interpolated string body that may use `content`.
  static func throwDecodingFailure(_ message: String) -> String {
    """
    throw FoundationModels.LanguageModelSession.GenerationError.decodingFailure(
    .init(debugDescription: "\(message)"))
    """
  }

  /// A Swift string literal for a name; names are identifiers, which hold no quote or backslash.
  static func stringLiteral(_ name: String) -> String {
    "\"\(name)\""
  }
}

/// One property written into generated content.
struct ContentEntry {
  let key: String
  /// An expression for the value, such as `self.title`.
  let value: String
  let isOptional: Bool
}

extension ExprSyntax {
  /// Whether this is `.name` or `.name(…)`, whose type comes from the context.
  var isImplicitMember: Bool {
    if let call = self.as(FunctionCallExprSyntax.self) { return call.calledExpression.isImplicitMember }
    guard let member = self.as(MemberAccessExprSyntax.self) else { return false }
    return member.base == nil
  }
}
