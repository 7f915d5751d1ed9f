import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Guide`: the description and guides of a stored property of a `@Generable` type.
///
/// It adds nothing itself; `@Generable` reads the attribute. Its expansion only checks where
/// it is attached, so that a guide on a computed property is an error instead of being
/// ignored. Whether the guides fit the property's type is checked by the type checker, on the
/// `GenerationSchema.Property` that `@Generable` writes.
public enum GuideMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self) else {
      context.diagnose(Diagnostic(node: node, message: GenerableDiagnostic.guideNotOnStoredProperty))
      return []
    }
    if !variable.isInstanceStoredProperty {
      let isComputed = variable.bindings.contains { !($0.accessorBlock?.isStorage ?? true) }
      let name = variable.bindings.first?.pattern.trimmedDescription ?? "?"
      let diagnostic = isComputed ? GenerableDiagnostic.guideOnComputedProperty(name) : .guideNotOnStoredProperty
      context.diagnose(Diagnostic(node: node, message: diagnostic))
    }
    return []
  }
}
