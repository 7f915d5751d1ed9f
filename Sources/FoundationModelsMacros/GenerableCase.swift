import SwiftSyntax

/// A case of a `@Generable` enum.
struct GenerableCase {
  /// The name as written, for `.name` expressions (keeps backticks).
  let identifier: String
  /// The case name in generated content: the string value, or the union's discriminator.
  let key: String
  /// The associated values; empty for a case without them.
  let values: [AssociatedValue]

  /// One associated value of a case.
  struct AssociatedValue {
    /// The argument label used to construct the case; `nil` when there is none.
    let label: String?
    /// The value's key in generated content: its label or name, else `_0`, `_1`, ….
    let key: String
    let type: PropertyType
  }

  /// The cases of an enum, in declaration order.
  static func all(in members: MemberBlockItemListSyntax) -> Result<[GenerableCase], Problems> {
    var cases: [GenerableCase] = []
    var problems = Problems()
    for member in members {
      guard let declaration = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      for element in declaration.elements {
        let values = values(of: element, problems: &problems)
        cases.append(GenerableCase(identifier: element.name.text, key: element.name.identifierName, values: values))
      }
    }
    return problems.isEmpty ? .success(cases) : .failure(problems)
  }

  private static func values(of element: EnumCaseElementSyntax, problems: inout Problems) -> [AssociatedValue] {
    guard let parameters = element.parameterClause?.parameters else { return [] }
    var values: [AssociatedValue] = []
    for (index, parameter) in parameters.enumerated() {
      let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0 }
      let key = (label ?? parameter.secondName)?.identifierName ?? "_\(index)"
      if key == UnionEnumExpansion.discriminator {
        problems.add(parameter, .discriminatorClash)
      }
      switch PropertyType.read(parameter.type) {
      case .success(let type):
        values.append(AssociatedValue(label: label?.text, key: key, type: type))
      case .failure(let problem):
        problems.add(problem.node, problem.diagnostic)
      }
    }
    return values
  }
}
