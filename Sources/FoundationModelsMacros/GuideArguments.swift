import SwiftSyntax

/// The description and guides of a property, merged from all its `@Guide` attributes.
///
/// `@Guide(description: "Age", .minimum(0))` and `@Guide(.maximum(120))` on one property give
/// the description "Age" and both guides. The guide expressions are copied as written into the
/// expansion, where the type checker checks them against the property's real type.
struct GuideArguments {
  /// The first description given, as written (usually a string literal).
  var description: ExprSyntax?
  /// Every guide (`GenerationGuide` expressions or regexes), in the order written.
  var guides: [ExprSyntax] = []

  init(attributes: AttributeListSyntax) {
    for case .attribute(let attribute) in attributes where Self.isGuide(attribute) {
      guard case .argumentList(let arguments) = attribute.arguments else { continue }
      for argument in arguments {
        if argument.label?.text == "description" {
          description = description ?? argument.expression.trimmed
        } else {
          guides.append(argument.expression.trimmed)
        }
      }
    }
  }

  /// Whether an attribute is `@Guide` (or `@FoundationModels.Guide`).
  static func isGuide(_ attribute: AttributeSyntax) -> Bool {
    if let identifier = attribute.attributeName.as(IdentifierTypeSyntax.self) {
      return identifier.name.text == "Guide"
    }
    if let member = attribute.attributeName.as(MemberTypeSyntax.self) {
      return member.name.text == "Guide" && member.baseType.trimmedDescription == "FoundationModels"
    }
    return false
  }
}
