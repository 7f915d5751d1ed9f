/// A prompt to the model, typically from a person using your app.
///
/// Matches FoundationModels `Prompt`. Build one from a string, from any
/// `PromptRepresentable` value, or with the `@PromptBuilder` result builder; the
/// components are joined with newlines (see `SegmentJoining`).
public struct Prompt: Sendable, PromptRepresentable {
  /// The content as transcript segments, text and structured; what the session records.
  var segments: [Transcript.Segment]

  init(segments: [Transcript.Segment]) {
    self.segments = segments
  }

  /// Joins several components in order.
  init(joining parts: [Prompt]) {
    segments = SegmentJoining.join(parts.map(\.segments))
  }

  /// The text the model reads: the components joined with `"\n"`, structured content as
  /// compact JSON.
  var text: String {
    SegmentJoining.text(of: segments)
  }

  /// Creates a prompt from a representable value.
  ///
  /// Matches FoundationModels `Prompt.init(_:)`.
  public init(_ content: some PromptRepresentable) {
    self = content.promptRepresentation
  }

  /// Creates a prompt with a result builder.
  ///
  /// Matches FoundationModels `Prompt.init(_:)` with `@PromptBuilder`.
  /// - Throws: Whatever the builder closure throws.
  public init(@PromptBuilder _ content: () throws -> Prompt) rethrows {
    self = try content()
  }

  /// Matches FoundationModels `Prompt.promptRepresentation`: the value itself.
  ///
  /// The explicit `return` keeps the builder attribute inherited from the requirement from
  /// applying, which would call this property again.
  public var promptRepresentation: Prompt {
    return self
  }
}
