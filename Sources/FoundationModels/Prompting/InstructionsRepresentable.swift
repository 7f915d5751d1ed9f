/// A type that can be used as instructions for a language model session.
///
/// Matches FoundationModels `InstructionsRepresentable`. `String`, arrays of representable values
/// and every `Generable` type conform. For your own types, provide a human-readable
/// representation.
public protocol InstructionsRepresentable {
  /// An instance that represents the instructions.
  @InstructionsBuilder var instructionsRepresentation: Instructions { get }
}

extension String: InstructionsRepresentable {
  /// The string as one text segment.
  ///
  /// Matches FoundationModels `String.instructionsRepresentation`.
  public var instructionsRepresentation: Instructions {
    Instructions(segments: [.text(Transcript.TextSegment(content: self))])
  }
}

extension Array: InstructionsRepresentable where Element: InstructionsRepresentable {
  /// The elements in order, joined with newlines.
  ///
  /// Matches FoundationModels `Array.instructionsRepresentation`.
  public var instructionsRepresentation: Instructions {
    Instructions(joining: map(\.instructionsRepresentation))
  }
}
