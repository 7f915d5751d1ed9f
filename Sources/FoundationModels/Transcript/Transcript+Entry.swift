extension Transcript {
  /// One entry of a transcript.
  ///
  /// Matches FoundationModels `Transcript.Entry`.
  @nonexhaustive
  public enum Entry: Sendable, Identifiable, Equatable, CustomStringConvertible {
    /// Instructions, typically provided by you, the developer.
    case instructions(Instructions)
    /// A prompt, typically sourced from an end user.
    case prompt(Prompt)
    /// Tool calls the model made.
    case toolCalls(ToolCalls)
    /// The output of one tool call.
    case toolOutput(ToolOutput)
    /// A response from the model.
    case response(Response)
    /// The model's reasoning.
    ///
    /// Matches FoundationModels 27 `Transcript.Entry.reasoning`.
    case reasoning(Reasoning)

    /// The id of the entry's payload.
    ///
    /// Matches FoundationModels `Transcript.Entry.id`.
    public var id: String {
      switch self {
      case .instructions(let instructions): return instructions.id
      case .prompt(let prompt): return prompt.id
      case .toolCalls(let calls): return calls.id
      case .toolOutput(let output): return output.id
      case .response(let response): return response.id
      case .reasoning(let reasoning): return reasoning.id
      }
    }

    /// The entry's role and text.
    ///
    /// Matches FoundationModels `Transcript.Entry.description`.
    public var description: String {
      switch self {
      case .instructions(let instructions):
        return "(Instructions) " + SegmentJoining.text(of: instructions.segments)
      case .prompt(let prompt):
        return "(Prompt) " + SegmentJoining.text(of: prompt.segments)
      case .toolCalls(let calls):
        return "(Tool calls) "
          + calls.map { "\($0.toolName)(\($0.arguments.jsonString))" }.joined(separator: ", ")
      case .toolOutput(let output):
        return "(Tool output: \(output.toolName)) " + SegmentJoining.text(of: output.segments)
      case .response(let response):
        return "(Response) " + SegmentJoining.text(of: response.segments)
      case .reasoning(let reasoning):
        return "(Reasoning) " + reasoning.description
      }
    }
  }
}
