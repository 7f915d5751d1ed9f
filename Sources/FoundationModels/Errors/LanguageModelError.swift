import Foundation

/// An error of a model or its executor.
///
/// Matches FoundationModels 27 `LanguageModelError`. Executors throw these (a provider maps an
/// HTTP 429 to ``rateLimited(_:)``, a prompt that does not fit to ``contextSizeExceeded(_:)``),
/// and sessions created with a 27 initializer (`model: some LanguageModel`) pass them on as they
/// are. Sessions created with a 26 initializer report the deprecated `GenerationError` instead,
/// as code written for 26 expects (see `LanguageModelSession`).
@nonexhaustive
public enum LanguageModelError: Error, LocalizedError, CustomDebugStringConvertible {
  /// The input plus the requested output does not fit the model's context.
  case contextSizeExceeded(ContextSizeExceeded)
  /// The provider throttled the request.
  case rateLimited(RateLimited)
  /// A safety check tripped on the input or the output.
  case guardrailViolation(GuardrailViolation)
  /// The model declined to answer.
  case refusal(Refusal)
  /// The request needs a capability the model lacks.
  case unsupportedCapability(UnsupportedCapability)
  /// The model cannot read some entries of the transcript.
  case unsupportedTranscriptContent(UnsupportedTranscriptContent)
  /// The model cannot enforce a guide of the schema.
  case unsupportedGenerationGuide(UnsupportedGenerationGuide)
  /// The model does not support the language.
  case unsupportedLanguageOrLocale(UnsupportedLanguageOrLocale)
  /// The request took too long.
  case timeout(Timeout)

  public var debugDescription: String {
    switch self {
    case .contextSizeExceeded(let error): error.debugDescription
    case .rateLimited(let error): error.debugDescription
    case .guardrailViolation(let error): error.debugDescription
    case .refusal(let error): error.debugDescription
    case .unsupportedCapability(let error): error.debugDescription
    case .unsupportedTranscriptContent(let error): error.debugDescription
    case .unsupportedGenerationGuide(let error): error.debugDescription
    case .unsupportedLanguageOrLocale(let error): error.debugDescription
    case .timeout(let error): error.debugDescription
    }
  }

  public var errorDescription: String? {
    switch self {
    case .contextSizeExceeded: "The content is too long for the model's context."
    case .rateLimited: "The model's provider is limiting requests; try again later."
    case .guardrailViolation: "A safety guardrail was triggered by the prompt or the response."
    case .refusal: "The model declined to respond."
    case .unsupportedCapability(let error): "The model does not support \(error.capability)."
    case .unsupportedTranscriptContent: "The model cannot read some of the transcript's content."
    case .unsupportedGenerationGuide: "The model cannot enforce a guide of the schema."
    case .unsupportedLanguageOrLocale: "The model does not support the language."
    case .timeout: "The request timed out."
    }
  }
}
