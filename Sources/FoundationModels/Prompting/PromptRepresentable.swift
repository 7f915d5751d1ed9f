/// A type that can be used as prompt for a language model session.
///
/// Matches FoundationModels `PromptRepresentable`. `String`, arrays of representable values
/// and every `Generable` type conform. For your own types, provide a human-readable
/// representation.
///
/// Conforming types inherit the `@PromptBuilder` attribute of the requirement: a body with several
/// lines is built like a builder closure; a body with an explicit `return` is not.
public protocol PromptRepresentable {
  /// An instance that represents the prompt.
  @PromptBuilder var promptRepresentation: Prompt { get }
}

extension String: PromptRepresentable {
  /// The string as one text segment.
  ///
  /// Matches FoundationModels `String.promptRepresentation`.
  public var promptRepresentation: Prompt {
    return Prompt(segments: [.text(Transcript.TextSegment(content: self))])
  }
}

extension Array: PromptRepresentable where Element: PromptRepresentable {
  /// The elements in order, joined with newlines.
  ///
  /// Matches FoundationModels `Array.promptRepresentation`.
  public var promptRepresentation: Prompt {
    return Prompt(joining: map(\.promptRepresentation))
  }
}
