import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@SessionPropertyEntry`: a session property declared as a variable with a default value, in
/// an extension of `SessionPropertyValues`.
///
/// `@SessionPropertyEntry var isExpertMode: Bool = false` becomes a computed property that reads
/// and writes `self[__Key_isExpertMode.self]`, and a peer key type whose `defaultValue` is the
/// initializer (nil for an optional without one). The key's `defaultValue` keeps the
/// initializer as a stored-looking declaration marked `@__SessionPropertyEntryDefaultValue`,
/// which turns it into a getter, so the default is evaluated on each read of an unset property
/// instead of living in static storage (a value need not be `Sendable`).
public enum EntryMacro: AccessorMacro, PeerMacro {
  public static func expansion(
    of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let entry = Entry(declaration, attribute: node, in: context) else { return [] }
    return [
      "get { self[\(raw: entry.keyName).self] }",
      "set { self[\(raw: entry.keyName).self] = newValue }",
    ]
  }

  public static func expansion(
    of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    // The accessor role reports the misuse; reporting it twice would only repeat it.
    guard let entry = Entry(declaration, attribute: node, in: nil) else { return [] }
    return [
      """
      private struct \(raw: entry.keyName): FoundationModels.SessionPropertyKey {
        typealias Value = \(entry.type.trimmed)
        @FoundationModels.__SessionPropertyEntryDefaultValue
        static var defaultValue: Value = \(entry.defaultValue.trimmed)
      }
      """
    ]
  }

  /// The parts of a `@SessionPropertyEntry` variable that the expansion uses.
  private struct Entry {
    let keyName: String
    let type: TypeSyntax
    let defaultValue: ExprSyntax

    /// Reads `declaration`, reporting misuse to `context` (when given).
    init?(_ declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax, in context: (any MacroExpansionContext)?)
    {
      func misuse(_ message: SessionPropertyEntryDiagnostic) {
        context?.diagnose(Diagnostic(node: attribute, message: message))
      }
      guard let variable = declaration.as(VariableDeclSyntax.self),
        variable.bindingSpecifier.tokenKind == .keyword(.var),
        variable.bindings.count == 1, let binding = variable.bindings.first,
        let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription,
        binding.accessorBlock == nil
      else { misuse(.notAVariable); return nil }
      if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) {
        misuse(.notAVariable)
        return nil
      }
      guard let type = binding.typeAnnotation?.type else { misuse(.missingType(name)); return nil }
      if let initializer = binding.initializer {
        defaultValue = initializer.value
      } else if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
        defaultValue = "nil"
      } else {
        misuse(.missingDefaultValue(name))
        return nil
      }
      keyName = "__Key_\(name)"
      self.type = type
    }
  }
}

/// `@__SessionPropertyEntryDefaultValue`: turns a key's `defaultValue` with an initializer into
/// a getter that evaluates the initializer.
public enum SessionPropertyEntryDefaultValueMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count == 1,
      let value = variable.bindings.first?.initializer?.value
    else {
      context.diagnose(Diagnostic(node: node, message: SessionPropertyEntryDiagnostic.defaultValueWithoutInitializer))
      return []
    }
    return ["get { \(value.trimmed) }"]
  }
}

/// Misuse of `@SessionPropertyEntry`.
enum SessionPropertyEntryDiagnostic: DiagnosticMessage {
  case notAVariable
  case missingType(String)
  case missingDefaultValue(String)
  case defaultValueWithoutInitializer

  var message: String {
    switch self {
    case .notAVariable:
      "'@SessionPropertyEntry' can only be used on a single stored 'var' in an extension of SessionPropertyValues"
    case .missingType(let name):
      "'@SessionPropertyEntry' needs the type of '\(name)'; write 'var \(name): Type = value'"
    case .missingDefaultValue(let name):
      "'@SessionPropertyEntry' needs a default value for '\(name)'; write 'var \(name): Type = value'"
    case .defaultValueWithoutInitializer:
      "'@__SessionPropertyEntryDefaultValue' needs a variable with an initializer"
    }
  }

  var diagnosticID: MessageID { MessageID(domain: "FoundationModelsMacros", id: "\(self)") }
  var severity: DiagnosticSeverity { .error }
}
