import SwiftSyntax

/// The type of a generated value (a stored property or an associated value), as written.
///
/// `@Generable` only needs the outer optional: `T?` is an optional property of type `T`, whose
/// partial form is `T.PartiallyGenerated?` like any other. Everything else is left to the type
/// checker, except types known not to be Generable, which are rejected here with a hint.
struct PropertyType {
  /// The type without its outer optional, for example `[String]` for `[String]?`.
  let wrapped: TypeSyntax
  /// Whether the value may be absent (`T?`, `T!` or `Optional<T>`).
  let isOptional: Bool

  /// The type in source form, with the optional spelled `T?`.
  var source: String {
    isOptional ? "\(wrapped.trimmedDescription)?" : wrapped.trimmedDescription
  }

  /// The type of the property in the nested `PartiallyGenerated` struct.
  var partiallyGeneratedSource: String {
    "\(wrapped.trimmedDescription).PartiallyGenerated?"
  }

  /// Reads a written type, or says why `@Generable` cannot generate it.
  static func read(_ type: TypeSyntax) -> Result<PropertyType, TypeProblem> {
    let written = unparenthesized(type)
    if let wrapped = optionalWrapped(written) {
      let inner = unparenthesized(wrapped)
      if optionalWrapped(inner) != nil {
        let diagnostic = GenerableDiagnostic.unsupportedType(
          type.trimmedDescription, "nested optionals are not Generable; use one '?'")
        return .failure(TypeProblem(node: type, diagnostic: diagnostic))
      }
      return check(inner).map { .failure($0) } ?? .success(PropertyType(wrapped: inner, isOptional: true))
    }
    return check(written).map { .failure($0) } ?? .success(PropertyType(wrapped: written, isOptional: false))
  }

  /// The wrapped type of `T?`, `T!` or `Optional<T>`; `nil` for any other type.
  private static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
    if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
    if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return unwrapped.wrappedType }
    return genericArgument(of: type, named: "Optional")
  }

  /// The single generic argument of `Name<T>` (also `Swift.Name<T>`).
  private static func genericArgument(of type: TypeSyntax, named name: String) -> TypeSyntax? {
    let arguments: GenericArgumentClauseSyntax?
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == name {
      arguments = identifier.genericArgumentClause
    } else if let member = type.as(MemberTypeSyntax.self), member.name.text == name,
      member.baseType.trimmedDescription == "Swift"
    {
      arguments = member.genericArgumentClause
    } else {
      return nil
    }
    guard let arguments, arguments.arguments.count == 1, let argument = arguments.arguments.first else {
      return nil
    }
    return TypeSyntax(argument.argument)
  }

  /// `(T)` is `T`.
  private static func unparenthesized(_ type: TypeSyntax) -> TypeSyntax {
    if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1,
      let only = tuple.elements.first, only.firstName == nil, only.ellipsis == nil
    {
      return unparenthesized(only.type)
    }
    return type
  }

  /// Why a (non-optional) type cannot be generated, when that is known from its spelling.
  private static func check(_ type: TypeSyntax) -> TypeProblem? {
    let problem = { (hint: String) in
      TypeProblem(node: type, diagnostic: .unsupportedType(type.trimmedDescription, hint))
    }
    if let array = type.as(ArrayTypeSyntax.self) {
      return checkElement(array.element)
    }
    if let element = genericArgument(of: type, named: "Array") {
      return checkElement(element)
    }
    if type.is(DictionaryTypeSyntax.self) || genericArgument(of: type, named: "Dictionary") != nil
      || simpleName(type) == "Dictionary"
    {
      return problem("dictionaries are not Generable; use an array of a '@Generable' struct")
    }
    if type.is(TupleTypeSyntax.self) {
      return problem("tuples are not Generable; use a '@Generable' struct")
    }
    if type.is(FunctionTypeSyntax.self) || type.is(AttributedTypeSyntax.self) {
      return problem("functions are not Generable")
    }
    if type.is(SomeOrAnyTypeSyntax.self) || type.is(CompositionTypeSyntax.self) || type.is(MetatypeTypeSyntax.self) {
      return problem("use a concrete Generable type")
    }
    if let name = simpleName(type), let hint = unsupportedNamedTypes[name] {
      return problem(hint)
    }
    return nil
  }

  /// Array elements must be Generable themselves; `Optional` is not.
  private static func checkElement(_ element: TypeSyntax) -> TypeProblem? {
    let element = unparenthesized(element)
    if optionalWrapped(element) != nil {
      let hint = "arrays of optionals are not Generable; leave the optional out"
      return TypeProblem(node: element, diagnostic: .unsupportedType("[\(element.trimmedDescription)]", hint))
    }
    return check(element)
  }

  /// The last name of `Name` or `Module.Name`, without generic arguments.
  private static func simpleName(_ type: TypeSyntax) -> String? {
    if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
    return nil
  }

  /// Common types that are not Generable (as on Apple platforms), with what to use instead.
  private static let unsupportedNamedTypes: [String: String] = {
    var hints: [String: String] = [
      "Set": "use an array",
      "Date": "use a String (for example an ISO 8601 date) or a '@Generable' struct",
      "URL": "use a String",
      "UUID": "use a String",
      "Data": "use a String",
      "Character": "use a String",
      "Substring": "use a String",
      "CGFloat": "use Double or Float",
      "Float16": "use Double or Float",
      "Float80": "use Double or Float",
      "GenerationID": "'PartiallyGenerated' already has 'id: GenerationID'; leave this property out",
    ]
    for integer in ["Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"] {
      hints[integer] = "the only Generable integer type is Int"
    }
    return hints
  }()
}

/// A type that `@Generable` cannot generate, with the reason.
struct TypeProblem: Error {
  let node: TypeSyntax
  let diagnostic: GenerableDiagnostic
}

extension PropertyType {
  /// `Swift.String`, for properties the expansion adds itself.
  static let string = PropertyType(
    wrapped: TypeSyntax(
      MemberTypeSyntax(baseType: IdentifierTypeSyntax(name: .identifier("Swift")), name: .identifier("String"))),
    isOptional: false)
}
