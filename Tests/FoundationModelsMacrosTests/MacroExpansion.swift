import FoundationModelsMacros
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import Testing

/// The result of expanding `@Generable`, `@Guide` and `@SessionPropertyEntry` in a piece of
/// source, in-process.
///
/// The toolchain does not ship swift-syntax's `assertMacroExpansion`, so the tests expand with
/// `SwiftSyntaxMacroExpansion` directly and compare token by token, which ignores whitespace
/// (the host `BasicFormat` reformats the expansion).
struct MacroExpansion {
  /// The source with every macro expanded.
  let expandedSource: String
  /// The diagnostics, as `line:column: message`.
  ///
  /// Peer macros (`@Guide`) see a detached copy of their attribute in-process, so their
  /// positions are not meaningful here (the compiler reports them at the attribute); test
  /// those with ``messages``.
  let diagnostics: [String]
  /// The diagnostics' messages alone.
  let messages: [String]

  /// Expands `source`.
  ///
  /// - Parameters:
  ///   - source: Swift source that uses the macros.
  ///   - conformances: The conformances the extension role is asked to add. The compiler
  ///     leaves out those the type already declares; this in-process expansion does not, so a
  ///     test of such a type passes `[]`.
  init(_ source: String, conformances: [String] = ["Generable"]) {
    let file = Parser.parse(source: source)
    let context = BasicMacroExpansionContext(
      sourceFiles: [file: .init(moduleName: "TestModule", fullFilePath: "Test.swift")])
    let conformanceTypes = conformances.map { TypeSyntax(IdentifierTypeSyntax(name: .identifier($0))) }
    let specs = [
      "Generable": MacroSpec(type: GenerableMacro.self, conformances: conformanceTypes),
      "Guide": MacroSpec(type: GuideMacro.self),
      "SessionPropertyEntry": MacroSpec(type: EntryMacro.self),
      "__SessionPropertyEntryDefaultValue": MacroSpec(type: SessionPropertyEntryDefaultValueMacro.self),
    ]
    let expanded = file.expand(
      macroSpecs: specs,
      contextGenerator: {
        BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts())
      },
      indentationWidth: .spaces(2))
    expandedSource = expanded.description
    let converter = SourceLocationConverter(fileName: "Test.swift", tree: file)
    messages = context.diagnostics.map(\.message)
    diagnostics = context.diagnostics.map {
      let location = $0.location(converter: converter)
      return "\(location.line):\(location.column): \($0.message)"
    }
  }

  /// Whether the expansion has the same tokens as `expected`.
  func matches(_ expected: String) -> Bool {
    Self.tokens(of: expandedSource) == Self.tokens(of: expected)
  }

  /// Records an issue that shows both sources when the expansion differs from `expected`.
  func expect(_ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let expectedTokens = Self.tokens(of: expected)
    let actualTokens = Self.tokens(of: expandedSource)
    guard expectedTokens != actualTokens else { return }
    let firstDifference =
      zip(expectedTokens, actualTokens).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(expectedTokens.count, actualTokens.count)
    let context = actualTokens[firstDifference..<min(firstDifference + 12, actualTokens.count)].joined(separator: " ")
    Issue.record(
      """
      Expansion differs at token \(firstDifference) (actual: \(context))
      --- actual ---
      \(expandedSource)
      --- expected ---
      \(expected)
      """, sourceLocation: sourceLocation)
  }

  private static func tokens(of source: String) -> [String] {
    Parser.parse(source: source).tokens(viewMode: .sourceAccurate).map(\.text)
  }
}
