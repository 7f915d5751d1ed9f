import Foundation
import GuidedDecoding
import InferenceEngine
import Synchronization

/// The default provider: a local GGUF model run by the inference engine.
struct LocalLanguageModelProvider: LanguageModelProvider {
  let model: SystemLanguageModel

  func makeExecutor() -> any LanguageModelExecutor {
    LocalExecutor(model: model)
  }
}

/// One session's engine: the shared model and an `InferenceSession` with the session's own KV
/// cache, created on first use. It holds the model's lease, so the model stays loaded while
/// the session lives and for the model's keep-alive period after.
final class LocalExecutor: LanguageModelExecutor {
  private let model: SystemLanguageModel
  private let engine = Mutex<(session: InferenceSession, lease: ModelLease?)?>(nil)

  init(model: SystemLanguageModel) {
    self.model = model
  }

  private func inference() async throws -> InferenceSession {
    if let existing = engine.withLock({ $0?.session }) { return existing }
    let (tokenModel, lease) = try await model.leasedModel()
    guard model.contextSize <= tokenModel.trainedContextLength else {
      throw LanguageModelSession.GenerationError.assetsUnavailable(
        .init(
          debugDescription:
            "contextSize \(model.contextSize) exceeds the model's trained context of \(tokenModel.trainedContextLength) tokens"
        ))
    }
    return engine.withLock { slot in
      if let slot { return slot.session }
      let created = InferenceSession(model: tokenModel, configuration: model.contextConfiguration)
      slot = (created, lease)
      return created
    }
  }

  private func renderer(for tokenModel: any TokenModel) -> TranscriptRenderer {
    TranscriptRenderer(useCase: model.useCase, templateSupportsTools: tokenModel.chatTemplate.supportsTools)
  }

  func respond(to request: ProviderRequest) -> AsyncThrowingStream<ProviderEvent, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: ProviderEvent.self)
    let task = Task {
      do {
        let session = try await inference()
        let tokenModel = session.model
        let (messages, tools) = renderer(for: tokenModel).messages(
          for: request.transcript, schemaForLastPrompt: request.includeSchemaInPrompt ? request.schema : nil)
        let prompt = tokenModel.tokenize(tokenModel.chatTemplate.render(messages, tools: tools))
        let contextSize = session.configuration.contextSize
        guard prompt.count < contextSize else {
          throw LanguageModelSession.GenerationError.exceededContextWindowSize(
            .init(
              debugDescription:
                "Content contains \(prompt.count) tokens, which exceeds the maximum allowed context size of \(contextSize)."
            ))
        }
        if let maximum = request.options.maximumResponseTokens, maximum < 1 {
          throw LanguageModelSession.GenerationError.decodingFailure(
            .init(debugDescription: "maximumResponseTokens must be positive, not \(maximum)."))
        }
        let constraint = try request.schema.map { schema in
          try SchemaConstraint(document: schema.guidedDocument, model: tokenModel)
        }
        let generation = GenerationRequest(
          promptTokens: prompt, sampling: request.options.samplingParameters,
          maximumTokens: request.options.maximumResponseTokens, constraint: constraint)
        for try await event in session.generate(generation) {
          switch event {
          case .text(let text):
            continuation.yield(.text(text))
          case .finished(let summary):
            if summary.stopReason == .contextFull {
              throw LanguageModelSession.GenerationError.exceededContextWindowSize(
                .init(
                  debugDescription:
                    "The response reached the context window: \(summary.usage.promptTokens) prompt and \(summary.usage.generatedTokens) generated tokens fill the context size of \(contextSize)."
                ))
            }
            continuation.yield(.finished(LanguageModelSession.Usage(summary.usage)))
          }
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: Self.publicError(error))
      }
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  func prewarm(transcript: Transcript, promptPrefix: Prompt?) async throws {
    let session = try await inference()
    let tokenModel = session.model
    var messages = renderer(for: tokenModel).messages(for: transcript).messages
    if let promptPrefix { messages.append(ChatMessage(role: .user, content: promptPrefix.text)) }
    // With a prefix, the user's turn stays open: the real prompt goes on after it.
    let tokens = tokenModel.tokenize(
      tokenModel.chatTemplate.render(messages, addGenerationPrompt: false, closingLastMessage: promptPrefix == nil))
    guard !tokens.isEmpty, tokens.count < session.configuration.contextSize else { return }
    try await session.prefill(tokens)
  }

  /// The tokens of `text` alone (no chat template), off the caller's actor.
  func tokenCount(of text: String) async throws -> Int {
    try await model.tokenModel().tokenize(text, parseSpecial: false).count
  }

  func tokenCount(of entries: [Transcript.Entry]) async throws -> Int {
    let tokenModel = try await model.tokenModel()
    let (messages, tools) = renderer(for: tokenModel).messages(for: entries)
    return tokenModel.tokenize(tokenModel.chatTemplate.render(messages, tools: tools, addGenerationPrompt: false)).count
  }

  /// Engine errors as the public API reports them.
  static func publicError(_ error: any Error) -> any Error {
    if let error = error as? GuidedDecoding.SchemaError {
      return LanguageModelSession.GenerationError.unsupportedGuide(.init(debugDescription: error.description))
    }
    if let error = error as? ConstraintError {
      return LanguageModelSession.GenerationError.decodingFailure(
        .init(debugDescription: "The output left the schema: \(error)"))
    }
    guard let engineError = error as? EngineError else { return error }
    let context = LanguageModelSession.GenerationError.Context(debugDescription: engineError.message)
    switch engineError.code {
    case .cancelled: return CancellationError()
    case .promptTooLong, .contextFull: return LanguageModelSession.GenerationError.exceededContextWindowSize(context)
    case .decodeFailed, .invalidRequest: return LanguageModelSession.GenerationError.decodingFailure(context)
    case .modelNotFound, .invalidModelFile, .unsupportedArchitecture, .contextCreationFailed:
      return LanguageModelSession.GenerationError.assetsUnavailable(context)
    }
  }
}

extension LanguageModelSession.Usage {
  init(_ usage: GenerationUsage) {
    self.init(
      inputTokens: usage.promptTokens, cachedInputTokens: usage.cachedPromptTokens, outputTokens: usage.generatedTokens,
      timeToFirstToken: usage.timeToFirstTokenSeconds, generationSeconds: usage.decodeSeconds,
      forcedTokens: usage.forcedTokens, draftTokens: usage.draftTokens, confirmedDraftTokens: usage.confirmedDraftTokens
    )
  }
}
