/// The error a session reports, in the family its initializer chose (see `LanguageModelSession`).
enum SessionErrors {
  /// `error` as the session reports it: for a 26-style session, 27 errors that have a 26
  /// counterpart become that `GenerationError` case (Apple's deprecation map); everything else
  /// passes unchanged.
  static func reported(_ error: any Error, generationErrors: Bool) -> any Error {
    typealias GenerationError = LanguageModelSession.GenerationError
    let context = { (text: String) in GenerationError.Context(debugDescription: text) }
    if let refusal = error as? ModelRefusal {
      guard generationErrors else {
        return LanguageModelError.refusal(.init(debugDescription: refusal.debugDescription))
      }
      return GenerationError.refusal(
        GenerationError.Refusal(transcriptEntries: refusal.entries, runner: refusal.runner),
        context(refusal.debugDescription))
    }
    guard generationErrors else { return error }
    switch error {
    case let error as LanguageModelError:
      switch error {
      case .contextSizeExceeded(let payload):
        return GenerationError.exceededContextWindowSize(context(payload.debugDescription))
      case .rateLimited(let payload): return GenerationError.rateLimited(context(payload.debugDescription))
      case .guardrailViolation(let payload):
        return GenerationError.guardrailViolation(context(payload.debugDescription))
      case .refusal(let payload):
        return GenerationError.refusal(.init(transcriptEntries: []), context(payload.debugDescription))
      case .unsupportedGenerationGuide(let payload):
        return GenerationError.unsupportedGuide(context(payload.debugDescription))
      case .unsupportedLanguageOrLocale(let payload):
        return GenerationError.unsupportedLanguageOrLocale(context(payload.debugDescription))
      case .unsupportedCapability, .unsupportedTranscriptContent, .timeout: return error
      }
    case let error as GeneratedContent.ParsingError:
      return GenerationError.decodingFailure(context(error.debugDescription))
    case let error as SystemLanguageModel.Error:
      return GenerationError.assetsUnavailable(context(error.debugDescription))
    case let error as LanguageModelSession.Error:
      switch error {
      case .concurrentRequests: return GenerationError.concurrentRequests(context(error.debugDescription))
      case .transcriptMutationWhileResponding: return error
      }
    default:
      return error
    }
  }
}
