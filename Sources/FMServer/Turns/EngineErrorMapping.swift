import FoundationModels

/// The framework's errors as API errors: what the client can fix is a 400 (a context it
/// overfills, a schema the engine cannot generate, a token limit no required call fits), what
/// it cannot is a 500 or 503.
enum EngineErrorMapping {
  static func apiError(for error: any Error) -> APIError {
    switch error {
    case LanguageModelError.contextSizeExceeded(let payload):
      return APIError.invalid(
        "The request does not fit the context: \(payload.debugDescription)", param: "messages",
        code: "context_length_exceeded")
    case LanguageModelError.unsupportedGenerationGuide(let payload):
      return APIError.invalid(
        "The schema cannot be generated: \(payload.debugDescription)", param: "response_format")
    case LanguageModelError.unsupportedCapability(let payload) where payload.capability == .reasoning:
      return APIError.invalid(payload.debugDescription, param: "reasoning_effort")
    case LanguageModelError.unsupportedTranscriptContent(let payload):
      return APIError.invalid(
        "The chat template cannot render these messages: \(payload.debugDescription)", param: "messages")
    case let error as GeneratedContent.ParsingError:
      if let budget = error.underlyingError as? RequiredCallBudgetError {
        return APIError.invalid(
          "The token limit (\(budget.maximumTokens)) cannot hold a required tool call, which needs at least \(budget.neededTokens) tokens",
          param: "max_tokens")
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
