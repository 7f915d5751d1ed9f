import FoundationModels
import JSON
import InferenceEngine

/// llama-server's helper endpoints on the served model: `/tokenize` (`{content}` →
/// `{tokens}`), `/detokenize` (`{tokens}` → `{content}`) and `/apply-template` (`{messages,
/// tools, chat_template_kwargs}` → `{prompt}`, the exact text the model would evaluate).
struct TokenizerRoutes {
  let model: ServedModel

  /// The JSON answer for `path`.
  /// - Throws: `APIError` for a malformed body.
  func answer(_ path: String, body: [UInt8]) async throws -> String {
    var fields = try JSONFields(ChatCompletionRequest.parse(body), path: "")
    switch path {
    case "/tokenize":
      guard let content = try fields.string("content") else {
        throw APIError.invalid("'content' is required", param: "content")
      }
      if try fields.bool("add_special") == true {
        throw APIError.unsupported(
          "add_special", "the engine's prompts start with no BOS token, so none is added here either")
      }
      try fields.rejectUnknown()
      let tokens = try await model.tokenModel().tokenize(content, parseSpecial: false)
      return JSONValue.object([member("tokens", .array(tokens.map { .number(ExactDecimal(Int($0))) }))]).compactText
    case "/detokenize":
      guard let values = try fields.array("tokens") else {
        throw APIError.invalid("'tokens' is required", param: "tokens")
      }
      try fields.rejectUnknown()
      let tokenModel = try await model.tokenModel()
      let tokens = try values.enumerated().map { index, value -> Int32 in
        guard case .number(let number) = value, number.isInteger, let token = Int32(number.jsonText),
          token >= 0, Int(token) < tokenModel.vocabularySize
        else {
          throw APIError.invalid(
            "'tokens[\(index)]' must be a token id from 0 to \(tokenModel.vocabularySize - 1)",
            param: "tokens[\(index)]")
        }
        return token
      }
      return JSONValue.object([member("content", .string(tokenModel.detokenize(tokens)))]).compactText
    default:
      guard let messages = try fields.array("messages") else {
        throw APIError.invalid("'messages' is required", param: "messages")
      }
      let tools = try ChatCompletionRequest.tools(&fields)
      let variables = try ChatCompletionRequest.templateVariables(&fields)
      try fields.rejectUnknown()
      let transcript = try ChatMessages.transcript(messages, tools: tools)
      let request = LanguageModelExecutorGenerationRequest(
        id: .init(), transcript: transcript, enabledTools: tools, generationOptions: GenerationOptions(),
        contextOptions: ContextOptions(), metadata: ChatTemplateVariables.metadata(variables))
      let prompt = try await model.renderedPrompt(for: request).text
      return JSONValue.object([member("prompt", .string(prompt))]).compactText
    }
  }
}
