/// Describes a stored property of a `@Generable` type for the model.
///
/// Matches FoundationModels `@Guide(description:)`.
@attached(peer)
public macro Guide(description: String) =
  #externalMacro(module: "FoundationModelsMacros", type: "GuideMacro")

/// Guides the generation of a stored property of a `@Generable` type.
///
/// Matches FoundationModels `@Guide(description:_:)` with generation guides, for example
/// `@Guide(.range(1...10))` or `@Guide(description: "Tags", .count(3))`. Several `@Guide`
/// attributes on one property merge. A guide that does not fit the property's type is a
/// compile error at the guide.
@attached(peer)
public macro Guide<T: Generable>(description: String? = nil, _ guides: GenerationGuide<T>...) =
  #externalMacro(module: "FoundationModelsMacros", type: "GuideMacro")

/// Makes a string property of a `@Generable` type match a regex.
///
/// Matches FoundationModels `@Guide(description:_:)` with a `Regex`, for example
/// `@Guide(/[A-Z]{3}-\d{4}/)`. See `GenerationGuide.pattern(_:)` for the regexes that guided
/// generation supports.
@attached(peer)
public macro Guide<RegexOutput>(description: String? = nil, _ guides: Regex<RegexOutput>) =
  #externalMacro(module: "FoundationModelsMacros", type: "GuideMacro")
