/// A type that can be converted to generated content.
///
/// Matches FoundationModels `ConvertibleToGeneratedContent`. Such a value can be placed in a
/// prompt or instructions: by default it becomes a structured segment that holds its
/// ``generatedContent``.
public protocol ConvertibleToGeneratedContent: InstructionsRepresentable, PromptRepresentable {
  /// This instance represented as generated content.
  var generatedContent: GeneratedContent { get }
}

extension ConvertibleToGeneratedContent {
  /// The value as instructions: one structured segment named after the type.
  ///
  /// Matches FoundationModels' default `instructionsRepresentation` for convertible types.
  public var instructionsRepresentation: Instructions {
    return Instructions(segments: [structuredSegment])
  }

  /// The value as a prompt: one structured segment named after the type.
  ///
  /// Matches FoundationModels' default `promptRepresentation` for convertible types.
  public var promptRepresentation: Prompt {
    return Prompt(segments: [structuredSegment])
  }

  private var structuredSegment: Transcript.Segment {
    .structure(
      Transcript.StructuredSegment(schemaName: SchemaComposer.name(of: Self.self), content: generatedContent))
  }
}
