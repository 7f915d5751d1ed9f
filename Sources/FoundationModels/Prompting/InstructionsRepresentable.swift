/// A type that can be used as instructions for a language model session.
///
/// Matches FoundationModels `InstructionsRepresentable`. `String`, arrays of representable values
/// and every `Generable` type conform. For your own types, provide a human-readable
/// representation.
///
/// Conforming types inherit the `@InstructionsBuilder` attribute of the requirement: a body with several
/// lines is built like a builder closure; a body with an explicit `return` is not.
public protocol InstructionsRepresentable {
  /// An instance that represents the instructions.
  @InstructionsBuilder var instructionsRepresentation: Instructions { get }
}

extension String: InstructionsRepresentable {
  /// The string as one text segment.
  ///
  /// Matches FoundationModels `String.instructionsRepresentation`.
  public var instructionsRepresentation: Instructions {
    return Instructions(segments: [.text(Transcript.TextSegment(content: self))])
  }
}

extension Array: InstructionsRepresentable where Element: InstructionsRepresentable {
  /// The elements in order, joined with newlines.
  ///
  /// Matches FoundationModels `Array.instructionsRepresentation`.
  public var instructionsRepresentation: Instructions {
    return Instructions(joining: map(\.instructionsRepresentation))
  }
}
