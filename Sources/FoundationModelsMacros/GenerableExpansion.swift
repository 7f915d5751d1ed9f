import SwiftSyntax

/// The code `@Generable` writes for one declaration.
protocol GenerableExpansion {
  /// Members added inside the type: `generationSchema` and nested types.
  func members() -> [DeclSyntax]
  /// Members of the `Generable` extension: `init(_:)` and `generatedContent`.
  ///
  /// They go in an extension so that a struct keeps its implicit memberwise initializer.
  func extensionMembers() -> [DeclSyntax]
}

/// Chooses the expansion for a declaration, or finds why there is none.
enum GenerableAnalysis {
  static func expansion(
    of attribute: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax
  ) -> Result<any GenerableExpansion, Problems> {
    let options: GenerableOptions
    switch GenerableOptions.read(attribute, declaration: declaration) {
    case .success(let read): options = read
    case .failure(let problem): return .failure(problem)
    }
    if let structure = declaration.as(StructDeclSyntax.self) {
      return GenerableProperty.all(in: structure.memberBlock.members).map {
        StructExpansion(options: options, properties: $0)
      }
    }
    if let enumeration = declaration.as(EnumDeclSyntax.self) {
      return GenerableCase.all(in: enumeration.memberBlock.members).flatMap {
        cases -> Result<any GenerableExpansion, Problems> in
        if cases.isEmpty {
          return .failure(.at(enumeration.name, .enumWithoutCases))
        }
        if cases.allSatisfy(\.values.isEmpty) {
          return .success(StringEnumExpansion(options: options, cases: cases))
        }
        return .success(UnionEnumExpansion(options: options, typeName: enumeration.name.identifierName, cases: cases))
      }
    }
    return .failure(.at(attribute, .notStructOrEnum))
  }
}
