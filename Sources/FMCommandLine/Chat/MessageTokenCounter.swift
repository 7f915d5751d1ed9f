import FoundationModels

/// Token counts of single messages, as the book's app shows them next to each message.
///
/// `SystemLanguageModel.tokenCount(for:)` counts what the entries take in a context, which,
/// for entries without instructions, includes the model's default system prompt that the chat
/// template adds (21 tokens for SmolLM2). The count of one prompt or reply leaves that out, so
/// the counts of the messages add up to the context used.
struct MessageTokenCounter: Sendable {
  let model: any ChatModel

  /// The tokens of the template's default system prompt (what an empty transcript takes).
  func baseline() async throws -> Int {
    try await model.tokenCount(for: [Transcript.Entry]())
  }

  /// The tokens `entry` adds to a context.
  func count(_ entry: Transcript.Entry, baseline: Int) async throws -> Int {
    let total = try await model.tokenCount(for: [entry])
    if case .instructions = entry { return total }
    return max(total - baseline, 0)
  }

  /// The tokens a prompt adds to a context.
  func count(prompt: String) async throws -> Int {
    try await count(
      .prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: prompt))])), baseline: baseline())
  }
}
