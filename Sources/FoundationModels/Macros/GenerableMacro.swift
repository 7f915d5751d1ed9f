/// Makes a struct or an enum `Generable`: a type the model can generate.
///
/// Matches FoundationModels `@Generable(description:)`. On a struct it writes
/// `generationSchema` (stored properties in declaration order, with the descriptions and
/// guides of their `@Guide` attributes), `init(_:)`, `generatedContent` and a nested
/// `PartiallyGenerated` struct for streamed snapshots (`Identifiable`, every property
/// `T.PartiallyGenerated?`), and keeps the memberwise initializer. A `nil` optional is left out
/// of `generatedContent`.
///
/// On an enum without associated values it writes a string enumeration of the case names
/// (`"fiction"`). An enum with associated values becomes a discriminated union: each case is an
/// object whose first key, `"type"`, holds the case name, followed by the associated values
/// under their labels (`_0`, `_1`, … when unlabelled):
///
/// ```swift
/// @Generable enum Shape {
///   case circle(radius: Double)   // {"type": "circle", "radius": 2}
///   case label(String)            // {"type": "label", "_0": "A"}
///   case empty                    // {"type": "empty"}
/// }
/// ```
///
/// An enum's `PartiallyGenerated` is the enum itself: in a streamed snapshot an enum value
/// appears once it is complete.
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

/// Makes a struct or an enum `Generable` under a schema name of its own.
///
/// Matches FoundationModels 27 `@Generable(name:description:representNilExplicitlyInGeneratedContent:)`.
/// `name` takes the place of the Swift type's name wherever the schema names the type: its
/// `title`, its key in another schema's `$defs`, `GenerationSchema.name`, the response format's
/// name and `StructuredSegment.schemaName`.
///
/// - Parameters:
///   - name: The schema's name for the type; a string literal.
///   - description: A description of the type for the model.
///   - representNilExplicitlyInGeneratedContent: Whether `nil` optionals are written as `null`.
@attached(
  extension, conformances: Generable, _GenerableSchemaName, names: named(init(_:)), named(generatedContent),
  named(_generationSchemaName))
@attached(member, names: arbitrary)
public macro Generable(
  name: String, description: String? = nil, representNilExplicitlyInGeneratedContent: Bool = false
) = #externalMacro(module: "FoundationModelsMacros", type: "GenerableMacro")
