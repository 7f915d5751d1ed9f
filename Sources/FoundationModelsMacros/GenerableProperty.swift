import SwiftSyntax

/// A stored property of a `@Generable` struct: one property of the generated object.
struct GenerableProperty {
  /// The name as written, for member access (keeps backticks: `` `default` ``).
  let identifier: String
  /// The property's key in generated content and in the schema.
  let key: String
  let type: PropertyType
  let guide: GuideArguments

  /// The generated properties of a struct, in declaration order, or every problem found.
  ///
  /// Computed and static properties are not generated, and neither are `let` constants with an
  /// initial value, which an initializer cannot set. Every property that is generated must
  /// have a written type.
  static func all(in members: MemberBlockItemListSyntax) -> Result<[GenerableProperty], Problems> {
    var properties: [GenerableProperty] = []
    var problems = Problems()
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
        laterType = binding.typeAnnotation?.type ?? (binding.initializer == nil ? laterType : nil)
        guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else {
          problems.add(binding.pattern, .unsupportedPattern)
          continue
        }
        if isConstant && binding.initializer != nil { continue }
        let name = pattern.identifier
        guard let written = laterType else {
          problems.add(pattern, .missingTypeAnnotation(name.identifierName))
          continue
        }
        switch PropertyType.read(written) {
        case .success(let type):
          found.append(GenerableProperty(identifier: name.text, key: name.identifierName, type: type, guide: guide))
        case .failure(let problem):
          problems.add(problem.node, problem.diagnostic)
        }
      }
      properties += found.reversed()
    }
    return problems.isEmpty ? .success(properties) : .failure(problems)
  }
}

/// The problems found while reading a declaration, and where to report them.
struct Problems: Error {
  private(set) var all: [(node: Syntax, diagnostic: GenerableDiagnostic)] = []

  var isEmpty: Bool { all.isEmpty }

  mutating func add(_ node: some SyntaxProtocol, _ diagnostic: GenerableDiagnostic) {
    all.append((Syntax(node), diagnostic))
  }

  /// A single problem.
  static func at(_ node: some SyntaxProtocol, _ diagnostic: GenerableDiagnostic) -> Problems {
    var problems = Problems()
    problems.add(node, diagnostic)
    return problems
  }
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
