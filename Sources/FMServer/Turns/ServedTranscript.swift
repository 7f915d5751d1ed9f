import FoundationModels

/// The transcript every API's conversation becomes: its instructions (texts joined by blank
/// lines) with the request's tools first, where there are any, then the entries.
enum ServedTranscript {
  /// - Parameter refusal: the error when the entries do not end with what the model answers (a
  ///   prompt or a tool's output), in the words of the API.
  static func make(
    _ entries: [Transcript.Entry], instructions: [String], tools: [Transcript.ToolDefinition], refusal: APIError
  ) throws -> Transcript {
    switch entries.last {
    case .prompt?, .toolOutput?: break
    default: throw refusal
    }
    guard !instructions.isEmpty || !tools.isEmpty else { return Transcript(entries: entries) }
    let segments: [Transcript.Segment] =
      instructions.isEmpty ? [] : [.text(.init(content: instructions.joined(separator: "\n\n")))]
    return Transcript(
      entries: [.instructions(Transcript.Instructions(segments: segments, toolDefinitions: tools))] + entries)
  }
}
