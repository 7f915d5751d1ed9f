import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Generable`: makes a struct or an enum `Generable`.
///
/// The member role adds `generationSchema` and nested types (`PartiallyGenerated`, or the case
/// types of a union); the extension role adds the conformance with `init(_:)` and
/// `generatedContent`. Both roles read the declaration the same way; only the member role
/// reports problems, so each is reported once.
public enum GenerableMacro: MemberMacro, ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    switch GenerableAnalysis.expansion(of: node, attachedTo: declaration) {
    case .success(let expansion):
      return expansion.members()
    case .failure(let problems):
      for problem in problems.all {
        context.diagnose(Diagnostic(node: problem.node, message: problem.diagnostic))
      }
      return []
    }
  }

  public static func expansion(
    of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard case .success(let expansion) = GenerableAnalysis.expansion(of: node, attachedTo: declaration) else {
      return []
    }
    let conformances = protocols.map(\.trimmedDescription).joined(separator: ", ")
    var members = expansion.extensionMembers()
    if case .success(let options) = GenerableOptions.read(node, declaration: declaration), let name = options.name {
      members.append("\(raw: options.accessPrefix)static var _generationSchemaName: Swift.String { \(name) }")
    }
    let declaration: DeclSyntax = """
      nonisolated extension \(type.trimmed)\(raw: conformances.isEmpty ? "" : ": \(conformances)") {
      \(raw: members.map(\.description).joined(separator: "\n\n"))
      }
      """
    guard let extensionDeclaration = declaration.as(ExtensionDeclSyntax.self) else {
      throw GenerableDiagnostic("internal", "'@Generable' produced an extension it cannot parse")
    }
    return [extensionDeclaration]
  }
}
