/// Instructions that tell the model how to behave, given by you, the developer.
///
/// Matches FoundationModels `Instructions`. Build one from a string, from any
/// `InstructionsRepresentable` value, or with the `@InstructionsBuilder` result builder; the
/// components are joined with newlines (see `SegmentJoining`).
public struct Instructions: Sendable, InstructionsRepresentable {
  /// The content as transcript segments, text and structured; what the session records.
  var segments: [Transcript.Segment]

  init(segments: [Transcript.Segment]) {
    self.segments = segments
  }

  /// Joins several components in order.
  init(joining parts: [Instructions]) {
    segments = SegmentJoining.join(parts.map(\.segments))
  }

  /// The text the model reads: the components joined with `"\n"`, structured content as
  /// compact JSON.
  var text: String {
    SegmentJoining.text(of: segments)
  }

  /// Creates instructions from a representable value.
  ///
  /// Matches FoundationModels `Instructions.init(_:)`.
  public init(_ content: some InstructionsRepresentable) {
    self = content.instructionsRepresentation
  }

  /// Creates instructions with a result builder.
  ///
  /// Matches FoundationModels `Instructions.init(_:)` with `@InstructionsBuilder`.
  /// - Throws: Whatever the builder closure throws.
  public init(@InstructionsBuilder _ content: () throws -> Instructions) rethrows {
    self = try content()
  }

  /// Matches FoundationModels `Instructions.instructionsRepresentation`: the value itself.
  ///
  /// The explicit `return` keeps the builder attribute inherited from the requirement from
  /// applying, which would call this property again.
  public var instructionsRepresentation: Instructions {
    return self
  }
}
