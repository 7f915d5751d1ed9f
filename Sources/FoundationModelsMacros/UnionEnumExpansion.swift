import SwiftSyntax
import SwiftSyntaxBuilder

/// `@Generable` on an enum with associated values: a discriminated union.
///
/// Wire shape: each case is an object whose first property, `"type"`, is the case name (a
/// constant), followed by the associated values under their labels, or `_0`, `_1`, … when
/// unlabelled. For
///
/// ```swift
/// @Generable enum Shape {
///   case circle(radius: Double)
///   case label(String)
///   case empty
/// }
/// ```
///
/// `.circle(radius: 2)` is `{"type": "circle", "radius": 2}`, `.label("A")` is
/// `{"type": "label", "_0": "A"}` and `.empty` is `{"type": "empty"}`. The schema is an `anyOf`
/// of one object schema per case; each is described by a private nested type named
/// `Shape_circle`, `Shape_label`, … (their names are the schema titles), because
/// `GenerationSchema(type:anyOf:)` takes types. The `"type"` constant comes first, so guided
/// decoding settles the case before any value. Like a string enum, a union decodes only from
/// complete content; its `PartiallyGenerated` is itself.
struct UnionEnumExpansion: GenerableExpansion {
  /// The key that holds the case name.
  static let discriminator = "type"

  let options: GenerableOptions
  let typeName: String
  let cases: [GenerableCase]

  private var access: String { options.accessPrefix }

  private func caseTypeName(_ enumCase: GenerableCase) -> String {
    "\(typeName)_\(enumCase.key)"
  }

  func members() -> [DeclSyntax] {
    let choices = cases.map { "\(caseTypeName($0)).self" }.joined(separator: ", ")
    let schema: DeclSyntax = """
      \(raw: access)nonisolated static var generationSchema: \(raw: ExpansionSource.schema) {
      \(raw: ExpansionSource.schema)(\(raw: options.schemaArguments), anyOf: [\(raw: choices)])
      }
      """
    return [schema] + cases.map(caseSchemaType)
  }

  /// A private type that only carries the schema of one case.
  private func caseSchemaType(_ enumCase: GenerableCase) -> DeclSyntax {
    var arguments = "type: Self.self"
    if let representsNilExplicitly = options.representsNilExplicitly {
      arguments += ", representNilExplicitlyInGeneratedContent: \(representsNilExplicitly)"
    }
    let discriminator = ExpansionSource.schemaProperty(
      key: Self.discriminator, type: PropertyType.string,
      guides: [".constant(\(raw: ExpansionSource.stringLiteral(enumCase.key)))"])
    let values = enumCase.values.map { ExpansionSource.schemaProperty(key: $0.key, type: $0.type) }
    return """
      private nonisolated struct \(raw: caseTypeName(enumCase)): FoundationModels.Generable {
      static var generationSchema: \(raw: ExpansionSource.schema) {
      \(raw: ExpansionSource.objectSchema(arguments: arguments, properties: [discriminator] + values))
      }
      var generatedContent: \(raw: ExpansionSource.content)
      init(_ content: \(raw: ExpansionSource.content)) {
      generatedContent = content
      }
      }
      """
  }

  func extensionMembers() -> [DeclSyntax] {
    let names = cases.map(\.key).joined(separator: ", ")
    let failure = ExpansionSource.throwDecodingFailure(
      "Cannot read \\(Self.self) from \\(content.jsonString); an object whose '\(Self.discriminator)' is one of \(names) was expected."
    )
    return [
      """
      \(raw: access)nonisolated init(_ content: \(raw: ExpansionSource.content)) throws {
      guard content.isComplete,
      let caseName = try? content.value(Swift.String.self, forProperty: \(raw: ExpansionSource.stringLiteral(Self.discriminator)))
      else {
      \(raw: failure)
      }
      switch caseName {
      \(raw: cases.map(decodingCase).joined(separator: "\n"))
      default:
      \(raw: failure)
      }
      }
      """,
      """
      \(raw: access)nonisolated var generatedContent: \(raw: ExpansionSource.content) {
      switch self {
      \(raw: cases.map(contentCase).joined(separator: "\n"))
      }
      }
      """,
    ]
  }

  private func decodingCase(_ enumCase: GenerableCase) -> String {
    let head = "case \(ExpansionSource.stringLiteral(enumCase.key)):\n"
    guard !enumCase.values.isEmpty else { return head + "self = .\(enumCase.identifier)" }
    let arguments = enumCase.values.map { value in
      let read = "content.value(forProperty: \(ExpansionSource.stringLiteral(value.key)))"
      return value.label.map { "\($0): \(read)" } ?? read
    }
    return head + "self = try .\(enumCase.identifier)(\(arguments.joined(separator: ", ")))"
  }

  private func contentCase(_ enumCase: GenerableCase) -> String {
    let bindings = enumCase.values.indices.map { "let value\($0)" }
    let pattern = bindings.isEmpty ? "" : "(\(bindings.joined(separator: ", ")))"
    let discriminator = ContentEntry(
      key: Self.discriminator, value: ExpansionSource.stringLiteral(enumCase.key), isOptional: false)
    let values = enumCase.values.enumerated().map { index, value in
      ContentEntry(key: value.key, value: "value\(index)", isOptional: value.type.isOptional)
    }
    let body = ExpansionSource.returnContent(
      [discriminator] + values, representsNilExplicitly: options.representsNilExplicitly ?? false)
    return "case .\(enumCase.identifier)\(pattern):\n\(body)"
  }
}
