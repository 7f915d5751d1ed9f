/// A type that the model can generate, guided by its schema.
///
/// Matches FoundationModels `Generable`. Conform with the `@Generable` macro, which writes the
/// schema (properties in declaration order), `init(_:)`, `generatedContent` and a
/// `PartiallyGenerated` type whose properties are all optional.
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent {
  /// A representation of partially generated content, used for streamed snapshots.
  associatedtype PartiallyGenerated: ConvertibleFromGeneratedContent = Self

  /// An instance of the generation schema.
  static var generationSchema: GenerationSchema { get }

  /// The partially generated representation of this instance.
  ///
  /// Matches FoundationModels `Generable.asPartiallyGenerated()`. Apple does not say whether
  /// this is a requirement or an extension method; a requirement with a default works for
  /// both kinds of caller.
  func asPartiallyGenerated() -> PartiallyGenerated
}

extension Generable {
  /// Returns the partially generated representation of the current instance.
  ///
  /// Matches FoundationModels `Generable.asPartiallyGenerated()`. When `PartiallyGenerated` is
  /// `Self` this is the instance itself; otherwise it is decoded from ``generatedContent``,
  /// which cannot fail for types whose `PartiallyGenerated` is all-optional (the macro's).
  public func asPartiallyGenerated() -> PartiallyGenerated {
    if let same = self as? PartiallyGenerated { return same }
    do {
      return try PartiallyGenerated(generatedContent)
    } catch {
      preconditionFailure("\(PartiallyGenerated.self) cannot represent \(Self.self): \(error)")
    }
  }
}
