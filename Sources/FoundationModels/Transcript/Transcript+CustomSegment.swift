extension Transcript {
  /// An app-defined kind of segment (a citation, a table) with a `Codable` payload.
  ///
  /// Matches FoundationModels 27 `Transcript.CustomSegment`. Values go straight into prompts and
  /// instructions (their text is their `description`), and executors can emit them with
  /// `Response.Action.updateCustomSegment`.
  public protocol CustomSegment: InstructionsRepresentable, PromptRepresentable, CustomStringConvertible, Equatable,
    Identifiable, Sendable
  {
    associatedtype Content: Decodable, Encodable, Equatable, Sendable
    var id: String { get }
    var content: Self.Content { get }
  }
}

extension Transcript.CustomSegment {
  /// The segment itself, as the prompt's one segment.
  public var promptRepresentation: Prompt {
    Prompt(segments: [.custom(self)])
  }

  /// The segment itself, as the instructions' one segment.
  public var instructionsRepresentation: Instructions {
    Instructions(segments: [.custom(self)])
  }

  /// The content's JSON.
  public var description: String {
    CustomSegmentCoding.json(of: content) ?? "\(content)"
  }

  /// Whether `other` is a segment of the same type with equal value.
  public func isEqual(to other: some Transcript.CustomSegment) -> Bool {
    (other as? Self) == self
  }
}
