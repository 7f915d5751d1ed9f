import FoundationModels

/// Transcript entries as the plain text the chat shows and the summariser reads.
enum TranscriptText {
  /// The role of an entry, as shown by `/show transcript`.
  static func role(of entry: Transcript.Entry) -> String {
    switch entry {
    case .instructions: "instructions"
    case .prompt: "user"
    case .response: "assistant"
    case .toolCalls: "tool calls"
    case .toolOutput: "tool output"
    case .reasoning: "reasoning"
    @unknown default: "entry"
    }
  }

  /// The text of an entry (without the role).
  static func text(of entry: Transcript.Entry) -> String {
    let segments: [Transcript.Segment]
    switch entry {
    case .instructions(let instructions): segments = instructions.segments
    case .prompt(let prompt): segments = prompt.segments
    case .response(let response): segments = response.segments
    case .toolOutput(let output): segments = output.segments
    case .reasoning(let reasoning): segments = reasoning.segments
    case .toolCalls: return entry.description
    @unknown default: return entry.description
    }
    return segments.map(\.description).joined(separator: "\n")
  }

  /// The text of the reasoning entries among `entries` (a thinking model's thinking).
  static func reasoning(in entries: some Sequence<Transcript.Entry>) -> String {
    entries.filter { if case .reasoning = $0 { true } else { false } }.map(text(of:)).joined(separator: "\n")
  }

  /// A conversation as "User: …" / "Assistant: …" paragraphs, for the summarising session.
  static func dialogue(_ entries: some Sequence<Transcript.Entry>) -> String {
    entries.compactMap { entry -> String? in
      switch entry {
      case .prompt: "User: " + text(of: entry)
      case .response: "Assistant: " + text(of: entry)
      case .toolOutput: "Tool: " + text(of: entry)
      case .instructions, .toolCalls, .reasoning: nil
      @unknown default: nil
      }
    }.joined(separator: "\n\n")
  }
}
