import Foundation
import GuidedDecoding
import InferenceEngine
import Synchronization

/// The llama.cpp side of `SystemLanguageModel.Executor`: the shared model and an
/// `InferenceSession` with one conversation's KV cache, created on first use. It holds the
/// model's lease, so the model stays loaded while the engine lives and for the model's
/// keep-alive period after.
final class LocalEngine: Sendable {
  private let engine = Mutex<(session: InferenceSession, leases: [ModelLease])?>(nil)
  /// The automata of the schemas this executor has decoded with.
  private let automata = SchemaAutomata()

  func inference(for model: SystemLanguageModel) async throws -> InferenceSession {
    if let existing = engine.withLock({ $0?.session }) { return existing }
    let (tokenModel, lease) = try await model.leasedModel()
    guard model.contextSize <= tokenModel.trainedContextLength else {
      throw SystemLanguageModel.Error.assetsUnavailable(
        .init(
          debugDescription:
            "contextSize \(model.contextSize) exceeds the model's trained context of \(tokenModel.trainedContextLength) tokens"
        ))
    }
    let sessionModel = try model.sessionModel(over: tokenModel, lease: lease)
    let draft = try await model.leasedDraftModel()
    let created: InferenceSession
    if let draft {
      do {
        created = try InferenceSession(
          model: sessionModel, configuration: model.contextConfiguration, draftModel: draft.model)
      } catch let error as EngineError {
        throw SystemLanguageModel.Error.assetsUnavailable(
          .init(debugDescription: "draft model \(model.draftModel ?? ""): \(error.message)"))
      }
    } else {
      created = InferenceSession(model: sessionModel, configuration: model.contextConfiguration)
    }
    return engine.withLock { slot in
      if let slot { return slot.session }
      slot = (created, [lease, draft?.lease].compactMap { $0 })
      return created
    }
  }

  private static func renderer(for model: SystemLanguageModel) -> TranscriptRenderer {
    TranscriptRenderer(useCase: model.useCase)
  }

  /// Answers `request`, streaming the text and, at the end, the usage and the engine's figures
  /// (`LocalModelFigures`, as the response's metadata).
  func respond(
    to request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel,
    channel: LanguageModelExecutorGenerationChannel
  ) async throws {
    do {
      let session = try await inference(for: model)
      let tokenModel = session.model
      let (template, rendered) = try Self.rendering(for: request, model: model, tokenModel: tokenModel)
      let (prompt, boundaries) = tokenModel.tokenizeInParts(rendered)
      // A thinking model's output: thinking first (unless the prompt turned it off), then the answer.
      let thinking = template.reasoning.flatMap { syntax -> (syntax: ReasoningSyntax, started: Bool)? in
        switch syntax.start(after: rendered) {
        case .answer: nil
        case .thinking: (syntax, true)
        case .either: (syntax, false)
        }
      }
      let contextSize = session.configuration.contextSize
      guard prompt.count < contextSize else {
        throw LanguageModelError.contextSizeExceeded(
          .init(
            contextSize: contextSize, tokenCount: prompt.count,
            debugDescription:
              "Content contains \(prompt.count) tokens, which exceeds the maximum allowed context size of \(contextSize)."
          ))
      }
      if let maximum = request.generationOptions.maximumResponseTokens, maximum < 1 {
        throw GeneratedContent.ParsingError(
          rawContent: "", debugDescription: "maximumResponseTokens must be positive, not \(maximum).")
      }
      let answer = try request.schema.map { schema in
        SchemaConstraint(schema: try schema.lowered.compiledSchema(), automata: automata, model: tokenModel)
      }
      let toolMode = Self.toolCallingMode(for: request)
      var constraint: (any TokenConstraint)? = answer
      var splitter: ToolCallTextSplitter?
      if let toolMode {
        let callable = CallableTools.names(in: request.metadata)
        let tools = request.enabledToolDefinitions.filter { callable?.contains($0.name) ?? true }.map {
          ToolCallConstraint.ToolSchema(name: $0.name, parameters: $0.parameters)
        }
        let format = ToolCallFormat.of(template.toolSyntax)
        let ownForm = format.readsOwnForm && (format.ownFormInEveryRound || !Self.hasToolOutputs(request))
        // The budget's check runs a constraint of its own, without the answer's (its state is shared).
        let makeCalls = { (answer: SchemaConstraint?) in
          ToolCallConstraint(
            tools: tools, mode: toolMode, answer: answer, ownForm: ownForm, automata: self.automata, model: tokenModel,
            format: format, oneCall: CallableTools.allowsOneCall(in: request.metadata),
            spacesArguments: template.spacesCallArguments)
        }
        if toolMode == .required, let maximum = request.generationOptions.maximumResponseTokens {
          try RequiredCallBudgetError.check(makeCalls(nil), maximumTokens: maximum)
        }
        let calls = makeCalls(answer)
        constraint = calls
        // The splitter reads the output as the constraint let it be written.
        let textMembers =
          format.taggedArguments.map { tagged in
            Dictionary(
              request.enabledToolDefinitions.map {
                ($0.name, TaggedArgumentsConstraint.textMembers(of: $0.parameters, rawStrings: tagged.rawStrings))
              }, uniquingKeysWith: { first, _ in first })
          } ?? [:]
        // Where no call can be written, no text is held back as a call's possible start.
        if toolMode != .disallowed {
          splitter = ToolCallTextSplitter(opening: calls.ownFormOpening, format: format, textMembers: textMembers)
        }
      }
      if let thinking, let answerConstraint = constraint {
        constraint = ThinkingConstraint(
          answer: answerConstraint, syntax: thinking.syntax, startsInThinking: thinking.started,
          endTokens: GuidedVocabularyCache.vocabulary(for: tokenModel).endOfSequenceTokens.map { Token($0) },
          model: tokenModel, forcesAnswerHeader: splitter == nil)
      }
      // Markers that the vocabulary has as control tokens are shown, so the splitters find them.
      let markers =
        (splitter?.format.markers ?? [])
        + (thinking.map { [$0.syntax.opening, $0.syntax.closing, $0.syntax.continuation, $0.syntax.answerHeader] } ?? [])
      let generation = GenerationRequest(
        promptTokens: prompt, promptBoundaries: boundaries, sampling: request.generationOptions.samplingParameters,
        maximumTokens: request.generationOptions.maximumResponseTokens, constraint: constraint,
        shownControlTokens: tokenModel.controlTokens.shown(markers), speculation: model.speculation.engineValue)
      var output = LocalOutput(
        channel: channel, splitter: splitter,
        reasoning: thinking.map { ReasoningSplitter(syntax: $0.syntax, startsInThinking: $0.started) })
      var finished = false
      for try await event in session.generate(generation) {
        switch event {
        case .text(let text):
          await output.send(text)
        case .logProbabilities, .promptLogProbabilities:
          // A chat turn asks for none.
          break
        case .finished(let summary):
          try await output.finish()
          let usage = summary.usage
          if summary.stopReason == .contextFull {
            throw LanguageModelError.contextSizeExceeded(
              .init(
                contextSize: contextSize, tokenCount: usage.promptTokens + usage.generatedTokens,
                debugDescription:
                  "The response reached the context window: \(usage.promptTokens) prompt and \(usage.generatedTokens) generated tokens fill the context size of \(contextSize)."
              ))
          }
          let figures = LocalModelFigures(
            timeToFirstToken: usage.timeToFirstTokenSeconds, generationSeconds: usage.decodeSeconds,
            forcedTokens: usage.forcedTokens, draftTokens: usage.draftTokens,
            confirmedDraftTokens: usage.confirmedDraftTokens, reachedMaximumTokens: summary.stopReason == .maximumTokens
          )
          await output.report(
            input: .init(totalTokenCount: usage.promptTokens, cachedTokenCount: usage.cachedPromptTokens),
            output: .init(totalTokenCount: usage.generatedTokens, reasoningTokenCount: 0), metadata: figures.metadata)
          finished = true
        }
      }
      // The stream ends without a summary only when the request was cancelled.
      guard finished else { throw CancellationError() }
    } catch {
      throw Self.publicError(error)
    }
  }

  /// The prompt `request` evaluates: its transcript through the model's chat template, with
  /// the schema in the last prompt unless the request leaves it out, and the enabled tools.
  static func prompt(
    for request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel, tokenModel: any TokenModel
  ) throws -> RenderedPrompt {
    try rendering(for: request, model: model, tokenModel: tokenModel).prompt
  }

  /// The template `request` renders with, and its prompt: the reasoning level's variables,
  /// then the request's own `chat_template_kwargs` (which win).
  static func rendering(
    for request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel, tokenModel: any TokenModel
  ) throws -> (template: ChatTemplate, prompt: RenderedPrompt) {
    let schemaInPrompt = (request.contextOptions.includeSchemaInPrompt ?? true) ? request.schema : nil
    let (messages, tools) = renderer(for: model).messages(
      for: request.transcript, schemaForLastPrompt: schemaInPrompt, enabledTools: request.enabledToolDefinitions)
    let template = try model.chatTemplate(for: tokenModel)
    let variables =
      try (request.contextOptions.reasoningLevel?.templateVariables(for: template.reasoning) ?? [])
      + ChatTemplateVariables.variables(in: request.metadata)
    return (template, try template.render(messages, tools: tools, variables: variables))
  }

  /// How the model may call the request's tools, or nil when it has none. `.required` holds
  /// until the model has called a tool in this turn: a later round (tool outputs after the
  /// prompt) may answer, or the loop could never end.
  static func toolCallingMode(for request: LanguageModelExecutorGenerationRequest) -> ToolCallConstraint.Mode? {
    guard !request.enabledToolDefinitions.isEmpty else { return nil }
    switch request.generationOptions.toolCallingMode?.kind {
    case .disallowed?: return .disallowed
    case .required?: return hasToolOutputs(request) ? .allowed : .required
    case .allowed?, nil: return .allowed
    }
  }

  /// Whether `request` is a later round of its turn: tools' outputs follow its prompt.
  static func hasToolOutputs(_ request: LanguageModelExecutorGenerationRequest) -> Bool {
    let thisTurn = request.transcript.reversed().prefix { if case .prompt = $0 { false } else { true } }
    return thisTurn.contains { if case .toolOutput = $0 { true } else { false } }
  }

  /// Loads the model and evaluates `transcript` into the KV cache, in the background. A prompt
  /// last in the transcript is a prefix of the next prompt: its turn is left open.
  func prewarm(model: SystemLanguageModel, transcript: Transcript) {
    Task {
      let session = try await inference(for: model)
      let tokenModel = session.model
      let messages = Self.renderer(for: model).messages(for: transcript).messages
      let endsWithPrompt: Bool = if case .prompt? = transcript.last { true } else { false }
      let (tokens, boundaries) = tokenModel.tokenizeInParts(
        try model.chatTemplate(for: tokenModel).render(
          messages, addGenerationPrompt: false, closingLastMessage: !endsWithPrompt))
      guard !tokens.isEmpty, tokens.count < session.configuration.contextSize else { return }
      try await session.prefill(tokens, boundaries: boundaries)
    }
  }

  /// The tokens of `text` alone (no chat template).
  static func tokenCount(of text: String, model: SystemLanguageModel) async throws -> Int {
    try await model.tokenModel().tokenize(text, parseSpecial: false).count
  }

  /// The tokens `entries` take when rendered with the model's chat template.
  static func tokenCount(of entries: [Transcript.Entry], model: SystemLanguageModel) async throws -> Int {
    let tokenModel = try await model.tokenModel()
    let (messages, tools) = renderer(for: model).messages(for: entries)
    do {
      return tokenModel.tokenize(
        try model.chatTemplate(for: tokenModel).render(messages, tools: tools, addGenerationPrompt: false)
      ).count
    } catch {
      throw publicError(error)
    }
  }

  /// Engine and guided-decoding errors in the one family the framework's internals throw, the
  /// 27 API's (a 26-style session maps them to `GenerationError` at its edge).
  static func publicError(_ error: any Error) -> any Error {
    if let error = error as? GuidedDecoding.SchemaError {
      return LanguageModelError.unsupportedGenerationGuide(.init(schemaName: nil, debugDescription: error.description))
    }
    if let error = error as? ToolCallSplitError {
      return GeneratedContent.ParsingError(rawContent: error.partialCall, debugDescription: error.description)
    }
    if let error = error as? ConstraintError {
      return GeneratedContent.ParsingError(rawContent: "", debugDescription: "The output left the schema: \(error)")
    }
    guard let engineError = error as? EngineError else { return error }
    switch engineError.code {
    case .cancelled: return CancellationError()
    case .queueFull: return LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: engineError.message))
    case .promptTooLong, .contextFull:
      return LanguageModelError.contextSizeExceeded(
        .init(contextSize: 0, tokenCount: 0, debugDescription: engineError.message))
    case .decodeFailed, .invalidRequest:
      return GeneratedContent.ParsingError(rawContent: "", debugDescription: engineError.message)
    case .invalidChatTemplate:
      // The template raised for this conversation (a role it does not take, say).
      return LanguageModelError.unsupportedTranscriptContent(
        .init(unsupportedContent: [], debugDescription: engineError.message))
    case .modelNotFound, .invalidModelFile, .unsupportedArchitecture, .contextCreationFailed:
      return SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: engineError.message))
    }
  }
}
