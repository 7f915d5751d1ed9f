/// Makes a struct or an enum `Generable`: a type the model can generate.
///
/// Matches FoundationModels `@Generable(description:)`. On a struct it writes
/// `generationSchema` (stored properties in declaration order, with the descriptions and
/// guides of their `@Guide` attributes), `init(_:)`, `generatedContent` and a nested
/// `PartiallyGenerated` struct for streamed snapshots (`Identifiable`, every property
/// `T.PartiallyGenerated?`), and keeps the memberwise initializer. On an enum without
/// associated values it writes a string enumeration of the case names; with associated values,
/// a discriminated union of objects `{"type": "case", …values}`.
///
/// - Parameter description: A description of the type for the model.
@attached(extension, conformances: Generable, names: named(init(_:)), named(generatedContent))
@attached(member, names: arbitrary)
public macro Generable(description: String? = nil) =
  #externalMacro(module: "FoundationModelsMacros", type: "GenerableMacro")

/// Makes a struct or an enum `Generable`, saying how absent optionals are written.
///
/// Matches FoundationModels `@Generable(description:representNilExplicitlyInGeneratedContent:)`
/// (26.4). With `true`, a `nil` optional property appears in `generatedContent` as `null`
/// instead of being left out; the schema is the same either way.
///
/// - Parameters:
///   - description: A description of the type for the model.
///   - representNilExplicitlyInGeneratedContent: Whether `nil` optionals are written as `null`;
///     a Boolean literal.
@attached(extension, conformances: Generable, names: named(init(_:)), named(generatedContent))
@attached(member, names: arbitrary)
public macro Generable(description: String? = nil, representNilExplicitlyInGeneratedContent: Bool) =
  #externalMacro(module: "FoundationModelsMacros", type: "GenerableMacro")
