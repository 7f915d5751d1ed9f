import Foundation

extension LanguageModelSession {
  /// An error that may occur while generating a response.
  ///
  /// Matches FoundationModels `LanguageModelSession.GenerationError` (26.x; cases in Apple's
  /// declaration order). Each case carries a ``Context`` whose `debugDescription` says what
  /// happened and why, in terms of this session (token counts, the offending guide, …).
  ///
  /// Apple's 27 SDK deprecates this enum in favour of `LanguageModelError`,
  /// `LanguageModelSession.Error`, `SystemLanguageModel.Error` and `GeneratedContent.ParsingError`.
  /// It is not deprecated here: Apple picks the error family by the SDK an app links against,
  /// which Linux cannot tell, so a session made with a 26 initializer still throws these (see
  /// `LanguageModelSession`), and a deprecation would warn on the only code that catches them.
  @nonexhaustive
  public enum GenerationError: Swift.Error, LocalizedError {
    /// The session's transcript plus the prompt and response do not fit in the context window.
    case exceededContextWindowSize(Context)
    /// The model (its file or its runtime) is not available.
    case assetsUnavailable(Context)
    /// A safety guardrail was triggered by the prompt or the response.
    case guardrailViolation(Context)
    /// A generation guide (for example a regex pattern) cannot be enforced.
    case unsupportedGuide(Context)
    /// The model was asked to respond in a language or locale it does not support.
    case unsupportedLanguageOrLocale(Context)
    /// The output could not be turned into the requested type.
    case decodingFailure(Context)
    /// The system's rate limit was exceeded (never thrown on Linux; kept for source parity).
    case rateLimited(Context)
    /// The session was asked to respond while it was already responding.
    case concurrentRequests(Context)
    /// The model refused to produce the requested content.
    case refusal(Refusal, Context)

    /// What happened and why.
    ///
    /// Matches FoundationModels `LanguageModelSession.GenerationError.Context`.
    public struct Context: Sendable {
      /// A description of the error for developers.
      public let debugDescription: String

      /// Creates a context.
      ///
      /// Matches FoundationModels `GenerationError.Context.init(debugDescription:)`.
      public init(debugDescription: String) {
        self.debugDescription = debugDescription
      }
    }

    /// The context of any case.
    var context: Context {
      switch self {
      case .exceededContextWindowSize(let context), .assetsUnavailable(let context),
        .guardrailViolation(let context), .unsupportedGuide(let context),
        .unsupportedLanguageOrLocale(let context), .decodingFailure(let context),
        .rateLimited(let context), .concurrentRequests(let context), .refusal(_, let context):
        return context
      }
    }

    /// A short description of the error, followed by the context's details.
    ///
    /// Matches FoundationModels `GenerationError.errorDescription`.
    public var errorDescription: String? {
      let summary: String
      switch self {
      case .exceededContextWindowSize:
        summary = "The session exceeded the model's context window size."
      case .assetsUnavailable:
        summary = "The language model is unavailable."
      case .guardrailViolation:
        summary = "The content was flagged by the safety guardrails."
      case .unsupportedGuide:
        summary = "A generation guide is not supported."
      case .unsupportedLanguageOrLocale:
        summary = "An unsupported language or locale was used."
      case .decodingFailure:
        summary = "The model output could not be decoded into the requested type."
      case .rateLimited:
        summary = "The request was rate limited."
      case .concurrentRequests:
        summary = "The session is already responding to another request."
      case .refusal:
        summary = "The model refused to respond to the request."
      }
      let details = context.debugDescription
      return details.isEmpty ? summary : "\(summary) \(details)"
    }

    /// Why the error happened.
    ///
    /// Matches FoundationModels `GenerationError.failureReason`.
    public var failureReason: String? {
      switch self {
      case .exceededContextWindowSize:
        return
          "The instructions, tools, schema, prompts and responses of a session share one context "
          + "window, and this request did not fit in it."
      case .assetsUnavailable:
        return "The model file could not be found or loaded."
      case .guardrailViolation:
        return "The prompt or the generated response contained content the guardrails block."
      case .unsupportedGuide:
        return "The guide uses a feature, such as a regex construct, that guided generation "
          + "cannot enforce."
      case .unsupportedLanguageOrLocale:
        return "The model does not support the language of the prompt."
      case .decodingFailure:
        return "The generated content did not match the expected structure, for example "
          + "because generation stopped early."
      case .rateLimited:
        return "Too many requests were made in a short time."
      case .concurrentRequests:
        return "A session handles one request at a time."
      case .refusal:
        return "The model was unable to provide the kind of response requested."
      }
    }

    /// What to do about it.
    ///
    /// Matches FoundationModels `GenerationError.recoverySuggestion`.
    public var recoverySuggestion: String? {
      switch self {
      case .exceededContextWindowSize:
        return "Start a new session with a shorter transcript (for example the instructions and "
          + "a summary), use a shorter prompt, or lower maximumResponseTokens."
      case .assetsUnavailable:
        return "Check SystemLanguageModel.default.availability, make sure the model is "
          + "downloaded, and try again."
      case .guardrailViolation:
        return "Rephrase the prompt, or use SystemLanguageModel.Guardrails"
          + ".permissiveContentTransformations for text transformations."
      case .unsupportedGuide:
        return "Simplify the guide, for example use a regex with fewer features or anyOf."
      case .unsupportedLanguageOrLocale:
        return "Check SystemLanguageModel.supportsLocale(_:) before prompting."
      case .decodingFailure:
        return "Try again, raise maximumResponseTokens, or simplify the schema."
      case .rateLimited:
        return "Wait and try again."
      case .concurrentRequests:
        return "Wait until isResponding is false before making another request, or use "
          + "another session."
      case .refusal:
        return "Use the refusal's explanation to understand why, and change the request."
      }
    }
  }
}
