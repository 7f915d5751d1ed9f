import FoundationModels
import JSON

/// A `POST /v1/completions` body (OpenAI's legacy completions), decoded and checked: every
/// parameter is honoured or refused with a 400 that names it.
struct TextCompletionRequest: Sendable {
  var model: String
  /// The text the model continues, as it is: no chat template.
  var prompt: String
  /// Sampling and `maximumResponseTokens` (OpenAI's default of 16 when not given).
  var options: GenerationOptions
  var stream: Bool
  var includeUsage: Bool
  var stop: [String]
  /// Whether the answer's text begins with the prompt.
  var echo: Bool
  /// `logprobs`: how many of the most likely tokens each token's log probability comes with
  /// (0…5); nil reports none.
  var logProbabilities: Int?

  /// OpenAI's default `max_tokens` for completions.
  static let defaultMaximumTokens = 16
  /// OpenAI's largest `logprobs` for completions.
  static let maximumLogProbabilities = 5

  /// Decodes `body`.
  /// - Throws: `APIError` for malformed JSON, unknown or unsupported parameters and bad values.
  init(body: [UInt8]) throws {
    var fields = try JSONFields(ChatCompletionRequest.parse(body), path: "")
    guard let model = try fields.string("model") else { throw APIError.invalid("'model' is required", param: "model") }
    self.model = model
    prompt = try Self.prompt(&fields)
    stream = try fields.bool("stream") ?? false
    includeUsage = try ChatCompletionRequest.includesUsage(&fields, stream: stream)
    for (key, why) in [
      ("n", "this server generates one choice per request (n must be 1)"),
      ("best_of", "this server generates one choice per request (best_of must be 1)"),
    ] {
      if let count = try fields.integer(key), count != 1 { throw APIError.unsupported(key, why) }
    }
    for penalty in ["presence_penalty", "frequency_penalty"] {
      if let value = try fields.number(penalty), value != 0 {
        throw APIError.unsupported(penalty, "the sampler has no repetition penalties (only 0 is accepted)")
      }
    }
    if let suffix = try fields.string("suffix"), !suffix.isEmpty {
      throw APIError.unsupported("suffix", "the model completes text at its end only (no insertion)")
    }
    if let bias = fields.value("logit_bias"), bias != .object([]) {
      throw APIError.unsupported("logit_bias", "the sampler takes no per-token biases")
    }
    _ = try fields.string("user")  // an end-user id for abuse monitoring: nothing to do here
    echo = try fields.bool("echo") ?? false
    logProbabilities = try fields.integer("logprobs")
    if let count = logProbabilities, !(0...Self.maximumLogProbabilities).contains(count) {
      throw APIError.invalid(
        "'logprobs' must be an integer from 0 to \(Self.maximumLogProbabilities), not \(count)", param: "logprobs")
    }
    stop = try ChatCompletionRequest.stopSequences(&fields)
    options = try SamplingFields.options(&fields, topK: false)
    options.maximumResponseTokens = try Self.maximumTokens(&fields, echo: echo) ?? Self.defaultMaximumTokens
    try fields.rejectUnknown()
  }

  /// `prompt`: a string, or an array of exactly one string.
  private static func prompt(_ fields: inout JSONFields) throws -> String {
    let expected = "a string or an array of one string"
    switch fields.value("prompt") {
    case nil: throw APIError.invalid("'prompt' is required", param: "prompt")
    case .string(let text)?: return text
    case .array(let elements)?:
      guard elements.count == 1 else {
        throw APIError.unsupported("prompt", "this server completes one prompt per request, not \(elements.count)")
      }
      guard case .string(let text) = elements[0] else {
        throw APIError.unsupported("prompt", "a prompt of token ids is not taken; send the text")
      }
      return text
    default: throw fields.mistyped("prompt", expected)
    }
  }

  /// `max_tokens`: positive, or 0 with `echo` (the prompt alone, scored: an evaluation harness's
  /// question for a text's likelihood).
  private static func maximumTokens(_ fields: inout JSONFields, echo: Bool) throws -> Int? {
    guard let maximum = try fields.integer("max_tokens") else { return nil }
    guard maximum >= (echo ? 0 : 1) else {
      throw APIError.invalid(
        "'max_tokens' must be a positive integer\(echo ? " or 0" : "") (0 only with 'echo')", param: "max_tokens")
    }
    return maximum
  }
}
