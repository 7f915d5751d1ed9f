extension Array: ConvertibleFromGeneratedContent where Element: ConvertibleFromGeneratedContent {
  /// Matches FoundationModels `Array.init(_:)`; reads an array, element by element.
  ///
  /// While an array streams, its last element may be unfinished and not yet readable (`"poe"`
  /// of an enum case `"poetry"`); such an element is left out instead of failing the array.
  public init(_ content: GeneratedContent) throws {
    guard let elements = content.arrayElements else {
      throw content.kindMismatch(expected: "an array", for: Self.self)
    }
    self = []
    reserveCapacity(elements.count)
    for element in elements {
      do {
        append(try Element(element))
      } catch  where !element.isComplete {
        continue
      }
    }
  }
}

extension Array: ConvertibleToGeneratedContent where Element: ConvertibleToGeneratedContent {
  /// Matches FoundationModels `Array.generatedContent`.
  public var generatedContent: GeneratedContent {
    GeneratedContent(kind: .array(map(\.generatedContent)))
  }
}

extension Array: Generable where Element: Generable {
  /// Streamed arrays hold partially generated elements.
  ///
  /// Matches FoundationModels `Array.PartiallyGenerated`.
  public typealias PartiallyGenerated = [Element.PartiallyGenerated]

  /// Matches FoundationModels `Array.generationSchema`: `{"type":"array","items":…}`.
  public static var generationSchema: GenerationSchema {
    let items = SchemaComposer.fragment(for: Element.self)
    return GenerationSchema(root: .array(ArraySchema(items: items.node)), definitions: items.definitions)
  }
}

extension Optional where Wrapped: Generable {
  /// An optional property streams as its wrapped type's partial form.
  ///
  /// Matches FoundationModels `Optional.PartiallyGenerated`.
  public typealias PartiallyGenerated = Wrapped.PartiallyGenerated
}

extension Optional: InstructionsRepresentable, PromptRepresentable, ConvertibleToGeneratedContent
where Wrapped: ConvertibleToGeneratedContent {
  /// The wrapped value's content, or `null`.
  ///
  /// Matches FoundationModels `Optional.generatedContent`.
  public var generatedContent: GeneratedContent {
    map(\.generatedContent) ?? GeneratedContent(kind: .null)
  }
}
