import SwiftSyntax

/// A stored property of a `@Generable` struct: one property of the generated object.
struct GenerableProperty {
  /// The name as written, for member access (keeps backticks: `` `default` ``).
  let identifier: String
  /// The property's key in generated content and in the schema.
  let key: String
  let type: PropertyType
  let guide: GuideArguments

  /// The generated properties of a struct, in declaration order.
  ///
  /// Computed and static properties are not generated, and neither are `let` constants with an
  /// initial value, which an initializer cannot set. Every property that is generated must
  /// have a written type.
  static func all(in members: MemberBlockItemListSyntax) -> Result<[GenerableProperty], PlacedProblem> {
    var properties: [GenerableProperty] = []
    for member in members {
      guard let variable = member.decl.as(VariableDeclSyntax.self), variable.isInstanceStoredProperty else {
        continue
      }
      let isConstant = variable.bindingSpecifier.tokenKind == .keyword(.let)
      let guide = GuideArguments(attributes: variable.attributes)
      // In `var a, b: Int` the type written last applies to every name before it.
      var laterType: TypeSyntax?
      var found: [GenerableProperty] = []
      for binding in variable.bindings.reversed() {
        guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
          return .failure(PlacedProblem(node: Syntax(binding.pattern), diagnostic: .unsupportedPattern))
        }
        laterType = binding.typeAnnotation?.type ?? (binding.initializer == nil ? laterType : nil)
        if isConstant && binding.initializer != nil { continue }
        let name = pattern.identifier
        guard let written = laterType else {
          return .failure(
            PlacedProblem(node: Syntax(pattern), diagnostic: .missingTypeAnnotation(name.identifierName)))
        }
        switch PropertyType.read(written) {
        case .success(let type):
          found.append(
            GenerableProperty(identifier: name.text, key: name.identifierName, type: type, guide: guide))
        case .failure(let problem):
          return .failure(PlacedProblem(node: Syntax(problem.node), diagnostic: problem.diagnostic))
        }
      }
      properties += found.reversed()
    }
    return .success(properties)
  }
}

/// A problem found while reading a declaration, and where to report it.
struct PlacedProblem: Error {
  let node: Syntax
  let diagnostic: GenerableDiagnostic
}

extension TokenSyntax {
  /// The name without backticks: `default` for `` `default` ``.
  var identifierName: String {
    identifier?.name ?? text
  }
}

extension VariableDeclSyntax {
  /// Whether this declares instance storage: not `static`/`class`, and without a getter
  /// (observers such as `didSet` keep a property stored).
  var isInstanceStoredProperty: Bool {
    let isTypeProperty = modifiers.contains {
      $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
    }
    return !isTypeProperty && bindings.allSatisfy { $0.accessorBlock?.isStorage ?? true }
  }
}

extension AccessorBlockSyntax {
  /// Whether these accessors only observe storage (`willSet`, `didSet`).
  var isStorage: Bool {
    switch accessors {
    case .getter:
      return false
    case .accessors(let list):
      return list.allSatisfy {
        $0.accessorSpecifier.tokenKind == .keyword(.willSet) || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
      }
    @unknown default:
      return false
    }
  }
}
