import SwiftDiagnostics

/// An error that `@Generable` or `@Guide` reports at a place in the user's code.
///
/// The macros report misuse as compiler errors at the offending declaration (a class, a
/// computed property, an unsupported property type) instead of generating code that fails to
/// compile somewhere less helpful.
struct GenerableDiagnostic: DiagnosticMessage, Error {
  let message: String
  let diagnosticID: MessageID
  var severity: DiagnosticSeverity { .error }

  init(_ id: String, _ message: String) {
    self.message = message
    diagnosticID = MessageID(domain: "FoundationModelsMacros", id: id)
  }

  static let notStructOrEnum = GenerableDiagnostic(
    "notStructOrEnum", "'@Generable' can only be used on structs and enums")

  static let enumWithoutCases = GenerableDiagnostic(
    "enumWithoutCases", "'@Generable' enum needs at least one case")

  static let representNilNotLiteral = GenerableDiagnostic(
    "representNilNotLiteral",
    "'representNilExplicitlyInGeneratedContent' must be the literal 'true' or 'false'")

  static let guideNotOnStoredProperty = GenerableDiagnostic(
    "guideNotOnStoredProperty", "'@Guide' can only be used on stored properties")

  static func guideOnComputedProperty(_ name: String) -> GenerableDiagnostic {
    GenerableDiagnostic(
      "guideOnComputedProperty",
      "'@Guide' cannot be used on computed property '\(name)'; only stored properties are generated")
  }

  static func missingTypeAnnotation(_ name: String) -> GenerableDiagnostic {
    GenerableDiagnostic(
      "missingTypeAnnotation", "'@Generable' needs an explicit type for property '\(name)'")
  }

  static let unsupportedPattern = GenerableDiagnostic(
    "unsupportedPattern", "'@Generable' needs one property name per binding; split the tuple pattern")

  static let discriminatorClash = GenerableDiagnostic(
    "discriminatorClash",
    "an associated value of a '@Generable' enum cannot be named 'type': that key holds the case name")

  static func unsupportedType(_ type: String, _ hint: String) -> GenerableDiagnostic {
    GenerableDiagnostic("unsupportedType", "'\(type)' is not supported by '@Generable': \(hint)")
  }
}
