import SwiftSyntax
import SwiftSyntaxBuilder

/// `@Generable` on an enum without associated values: a string that is one of the case names.
///
/// `@Generable enum Genre { case fiction, poetry }` gets the schema
/// `GenerationSchema(type: Self.self, anyOf: ["fiction", "poetry"])`, generated content
/// `"fiction"`, and an `init(_:)` that accepts only a complete case name. A value still being
/// streamed (`"fic"`, or `"low"` on its way to `"lower"`) throws, so an optional property of a
/// `PartiallyGenerated` type reads it as `nil` until it is finished. The enum's
/// `PartiallyGenerated` is itself.
struct StringEnumExpansion: GenerableExpansion {
  let options: GenerableOptions
  let cases: [GenerableCase]

  private var access: String { options.accessPrefix }

  func members() -> [DeclSyntax] {
    let choices = cases.map { ExpansionSource.stringLiteral($0.key) }.joined(separator: ", ")
    return [
      """
      \(raw: access)nonisolated static var generationSchema: \(raw: ExpansionSource.schema) {
      \(raw: ExpansionSource.schema)(\(raw: options.schemaArguments), anyOf: [\(raw: choices)])
      }
      """
    ]
  }

  func extensionMembers() -> [DeclSyntax] {
    let names = cases.map(\.key).joined(separator: ", ")
    let failure = ExpansionSource.throwDecodingFailure(
      "Cannot read \\(Self.self) from \\(content.jsonString); one of \(names) was expected.")
    let matches = cases.map { "case \(ExpansionSource.stringLiteral($0.key)):\nself = .\($0.identifier)" }
    let contents = cases.map {
      "case .\($0.identifier):\nreturn \(ExpansionSource.content)(kind: .string(\(ExpansionSource.stringLiteral($0.key))))"
    }
    return [
      """
      \(raw: access)nonisolated init(_ content: \(raw: ExpansionSource.content)) throws {
      guard content.isComplete, case .string(let caseName) = content.kind else {
      \(raw: failure)
      }
      switch caseName {
      \(raw: matches.joined(separator: "\n"))
      default:
      \(raw: failure)
      }
      }
      """,
      """
      \(raw: access)nonisolated var generatedContent: \(raw: ExpansionSource.content) {
      switch self {
      \(raw: contents.joined(separator: "\n"))
      }
      }
      """,
    ]
  }
}
