import FoundationModels

/// The framework's errors as API errors: what the client can fix is a 400 (a context it
/// overfills, a schema the engine cannot generate, a token limit no required call fits), what
/// it cannot is a 500 or 503.
enum EngineErrorMapping {
  /// - Parameter fields: how the API names the request fields an error is about.
  static func apiError(for error: any Error, fields: RequestFields = .chatCompletions) -> APIError {
    switch error {
    case LanguageModelError.contextSizeExceeded(let payload):
      return APIError.invalid(
        "The request does not fit the context: \(payload.debugDescription)", param: fields.conversation,
        code: "context_length_exceeded")
    case LanguageModelError.unsupportedGenerationGuide(let payload):
      return APIError.invalid(
        "The schema cannot be generated: \(payload.debugDescription)", param: fields.outputFormat)
    case LanguageModelError.unsupportedCapability(let payload) where payload.capability == .reasoning:
      return APIError.invalid(payload.debugDescription, param: fields.reasoning)
    case LanguageModelError.unsupportedTranscriptContent(let payload):
      return APIError.invalid(
        "The chat template cannot render these messages: \(payload.debugDescription)", param: fields.conversation)
    case let error as GeneratedContent.ParsingError:
      if let budget = error.underlyingError as? RequiredCallBudgetError {
        return APIError.invalid(
          "The token limit (\(budget.maximumTokens)) cannot hold a required tool call, which needs at least \(budget.neededTokens) tokens",
          param: fields.tokenLimit)
      }
      return APIError(.internalServerError, "The model's output could not be read: \(error.debugDescription)")
    case SystemLanguageModel.Error.assetsUnavailable(let payload):
      return APIError(.serviceUnavailable, "The model is not available: \(payload.debugDescription)")
    case let error as LanguageModelSession.GenerationError:
      return APIError(.internalServerError, "Generation failed: \(error)")
    default:
      return APIError(.internalServerError, "Generation failed: \(error)")
    }
  }
}

/// The request fields an engine error can be about, as each API names them.
enum RequestFields {
  case chatCompletions, responses, textCompletions

  /// What an error about the request's input is about: the conversation, or the prompt.
  var conversation: String {
    switch self {
    case .chatCompletions: "messages"
    case .responses: "input"
    case .textCompletions: "prompt"
    }
  }
  var tokenLimit: String { self == .responses ? "max_output_tokens" : "max_tokens" }
  var outputFormat: String { self == .responses ? "text.format" : "response_format" }
  var reasoning: String { self == .responses ? "reasoning.effort" : "reasoning_effort" }

  /// The fields of the API that serves `path`.
  init(path: String) {
    switch Endpoint(path: path) {
    case .responses?: self = .responses
    case .textCompletions?: self = .textCompletions
    default: self = .chatCompletions
    }
  }
}
