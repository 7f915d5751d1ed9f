import Foundation
import FoundationModels
import JSON

/// The JSON of text-completion answers in OpenAI's legacy shapes: the whole `text_completion`,
/// and the chunks of a stream (the same object, one `id` and `created` for all of them).
struct TextCompletionObjects {
  let id: String
  let created: Int
  let model: String
  /// Whether choices carry `logprobs` (the request's `logprobs`), or null.
  let reportsTokens: Bool

  init(model: String, reportsTokens: Bool) {
    id = "cmpl-" + String(CompletionRunner.callID().dropFirst(5))
    created = Int(Date().timeIntervalSince1970)
    self.model = model
    self.reportsTokens = reportsTokens
  }

  /// The whole answer of a request without `stream`.
  func completion(text: String, tokens: [TextCompletionRunner.ScoredToken], summary: CompletionRunner.Summary)
    -> String
  {
    envelope(
      choices: [choice(text: text, tokens: tokens, finishReason: summary.openAIFinishReason)],
      usage: ChatCompletionChunks.usage(summary)
    ).compactText
  }

  /// A chunk of a stream with a piece of the answer.
  func chunk(_ piece: TextCompletionRunner.Piece) -> String {
    envelope(choices: [choice(text: piece.text, tokens: piece.tokens, finishReason: nil)], usage: nil).compactText
  }

  /// The last chunk of the answer: no text, and why it ended.
  func finalChunk(_ summary: CompletionRunner.Summary) -> String {
    let choice = JSONValue.object([
      member("text", .string("")), member("index", .integer(0)), member("logprobs", .null),
      member("finish_reason", .string(summary.openAIFinishReason)),
    ])
    return envelope(choices: [choice], usage: nil).compactText
  }

  /// The usage chunk (`stream_options.include_usage`): no choices.
  func usageChunk(_ summary: CompletionRunner.Summary) -> String {
    envelope(choices: [], usage: ChatCompletionChunks.usage(summary)).compactText
  }

  private func choice(text: String, tokens: [TextCompletionRunner.ScoredToken], finishReason: String?) -> JSONValue {
    .object([
      member("text", .string(text)), member("index", .integer(0)),
      member("logprobs", reportsTokens ? Self.logProbabilities(tokens) : .null),
      member("finish_reason", .optional(finishReason)),
    ])
  }

  private func envelope(choices: [JSONValue], usage: JSONValue?) -> JSONValue {
    var members = [
      member("id", .string(id)), member("object", .string("text_completion")), member("created", .integer(created)),
      member("model", .string(model)), member("system_fingerprint", .string("fm")), member("choices", .array(choices)),
    ]
    if let usage { members.append(member("usage", usage)) }
    return .object(members)
  }

  /// OpenAI's legacy `logprobs` object: parallel arrays of the tokens, their log probabilities
  /// (null for the prompt's first token), their most likely alternatives (text to log
  /// probability; null where the token has no log probability) and where each token's text
  /// begins.
  static func logProbabilities(_ tokens: [TextCompletionRunner.ScoredToken]) -> JSONValue {
    func number(_ value: Float) -> JSONValue { .double(Double(value)) }
    let alternatives = tokens.map { token -> JSONValue in
      guard token.logProbability != nil else { return .null }
      var members: [JSONValue.Member] = []
      // Two tokens of one text (a piece of a character each, say) are one key: the likelier.
      for alternative in token.alternatives where !members.contains(where: { $0.key == alternative.text }) {
        members.append(member(alternative.text, number(alternative.logProbability)))
      }
      return .object(members)
    }
    return .object([
      member("tokens", .array(tokens.map { .string($0.text) })),
      member("token_logprobs", .array(tokens.map { $0.logProbability.map(number) ?? .null })),
      member("top_logprobs", .array(alternatives)), member("text_offset", .array(tokens.map { .integer($0.offset) })),
    ])
  }
}
