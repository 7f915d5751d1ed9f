import SwiftSyntax

/// What a `@Generable` attribute says, and the access level its members take.
struct GenerableOptions {
  /// The `name:` argument as written; `nil` when absent (the schema takes the type's name).
  var name: ExprSyntax?
  /// The `description:` argument as written; `nil` when absent.
  var description: ExprSyntax?
  /// The `representNilExplicitlyInGeneratedContent:` argument; `nil` when absent.
  var representsNilExplicitly: Bool?
  /// `public `, `package ` or nothing: generated members are as visible as the type.
  var accessPrefix: String

  /// Reads the attribute's arguments and the access modifiers of the declaration.
  static func read(
    _ attribute: AttributeSyntax, declaration: some DeclGroupSyntax
  ) -> Result<GenerableOptions, Problems> {
    var options = GenerableOptions(accessPrefix: accessPrefix(of: declaration.modifiers))
    guard case .argumentList(let arguments) = attribute.arguments else { return .success(options) }
    for argument in arguments {
      switch argument.label?.text {
      case "name":
        options.name = argument.expression.trimmed
      case "description":
        // `description: nil` is the same as leaving it out.
        if !argument.expression.is(NilLiteralExprSyntax.self) {
          options.description = argument.expression.trimmed
        }
      case "representNilExplicitlyInGeneratedContent":
        guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
          return .failure(.at(argument.expression, .representNilNotLiteral))
        }
        options.representsNilExplicitly = literal.literal.tokenKind == .keyword(.true)
      default:
        continue
      }
    }
    return .success(options)
  }

  private static func accessPrefix(of modifiers: DeclModifierListSyntax) -> String {
    for modifier in modifiers {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.open): return "public "
      case .keyword(.package): return "package "
      default: continue
      }
    }
    return ""
  }

  /// The arguments of `GenerationSchema(type:…)` before its choices or properties.
  var schemaArguments: String {
    var arguments = "type: Self.self"
    if let description { arguments += ", description: \(description)" }
    if let representsNilExplicitly {
      arguments += ", representNilExplicitlyInGeneratedContent: \(representsNilExplicitly)"
    }
    return arguments
  }
}
