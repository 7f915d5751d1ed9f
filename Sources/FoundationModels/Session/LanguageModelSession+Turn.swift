import Foundation

/// How a turn's growing text becomes content: free text, or JSON of a schema.
struct ContentFormat: Sendable {
  /// The schema the answer follows, or nil for free text.
  let schema: GenerationSchema?

  static let text = ContentFormat(schema: nil)

  /// The answer so far as generated content.
  /// - Throws: `GeneratedContent.ParsingError` when a structured answer is not (a prefix of) JSON.
  func rawContent(_ text: String) throws -> GeneratedContent {
    guard schema != nil else { return GeneratedContent(kind: .string(text)) }
    do {
      return try GeneratedContent(json: text)
    } catch {
      throw GeneratedContent.ParsingError(
        rawContent: text, underlyingError: error, debugDescription: "The output is not JSON: \(error)")
    }
  }

  /// The transcript segment that records a complete answer.
  func segment(_ text: String, rawContent: GeneratedContent) -> Transcript.Segment {
    guard let schema else { return .text(Transcript.TextSegment(content: text)) }
    return .structure(
      Transcript.StructuredSegment(schemaName: Transcript.ResponseFormat(schema: schema).name, content: rawContent))
  }
}

/// What a turn asks for, besides the prompt.
struct TurnRequest: Sendable {
  var format: ContentFormat
  var options: GenerationOptions
  var contextOptions: ContextOptions
  var metadata: [String: any Sendable & Codable & Equatable]
}

extension LanguageModelSession {
  /// The most model invocations one turn makes: a tool loop that has not answered by then ends
  /// with an error rather than running forever.
  static let maximumToolRounds = 16

  /// The most times one turn may call a tool with the same arguments: the answer cannot change,
  /// so a model that asks again is looping, and the turn ends with an error.
  static let maximumIdenticalToolCalls = 2

  /// Starts a turn: checks the session is free, streams snapshots while the model's executor
  /// answers (running the tools it calls, round after round), and commits the turn to the
  /// transcript when it succeeds — its conversation (the history, then its prompt, as its hooks
  /// and tools left them) and the entries it produced — or, by the session's
  /// `transcriptErrorHandlingPolicy`, what it had by the time it failed.
  func startTurn<Content: Generable>(prompt: Prompt, request: TurnRequest, as type: Content.Type)
    -> ResponseStream<Content>
  {
    let (events, continuation) = AsyncThrowingStream.makeStream(of: ResponseStream<Content>.Event.self)
    let outcome = TurnOutcome<Content>()
    let reportsGenerationErrors = reportsGenerationErrors
    let promptEntry = Transcript.Entry.prompt(
      Transcript.Prompt(
        metadata: request.metadata, segments: prompt.segments, options: request.options,
        responseFormat: request.format.schema.map { Transcript.ResponseFormat(schema: $0) },
        contextOptions: request.contextOptions))
    guard let turn = beginTurn(prompt: promptEntry) else {
      continuation.finish(
        throwing: SessionErrors.reported(Error.concurrentRequests, generationErrors: reportsGenerationErrors))
      return ResponseStream(events: events, outcome: outcome)
    }
    let sessionPolicy = transcriptErrorHandlingPolicy
    let driver = TurnDriver(session: self, turn: turn, request: request, generatesString: Content.self == String.self)
    let task = Task {
      do throws(TurnDriver.Failure) {
        let result = try await driver.run { entries, text, usage in
          let raw = try request.format.rawContent(text)
          if let partial = try? Content.PartiallyGenerated(raw) {
            continuation.yield(
              .snapshot(.init(content: partial, rawContent: raw, transcriptEntries: entries[...], usage: usage)))
          }
        }
        let content: Content
        do {
          content = try Content(result.rawContent)
        } catch {
          throw TurnDriver.Failure(
            error: GeneratedContent.ParsingError(
              rawContent: result.text, underlyingError: error,
              debugDescription: "The output could not be decoded as \(Content.self): \(error)"),
            entries: result.entries)
        }
        if turn.refusedHistoryWrite {
          throw TurnDriver.Failure(error: Error.transcriptMutationWhileResponding, entries: result.entries)
        }
        guard let entries = endTurn(turn, keeping: result.entries, prompt: result.prompt, usage: result.usage) else {
          throw TurnDriver.Failure(error: CancellationError(), entries: [])
        }
        continuation.yield(
          .completed(
            Response(content: content, rawContent: result.rawContent, transcriptEntries: entries, usage: result.usage)))
        continuation.finish()
      } catch {
        // A cancelled turn was stopped, not failed: it keeps nothing, even when it gets here before
        // the stream's termination handler has ended it.
        let cancelled = error.error is CancellationError || Task.isCancelled
        // Content the guardrails blocked is never kept, whatever the policy.
        let blocked = (error.error as? LanguageModelError)?.isGuardrailViolation ?? false
        let keepsFailedTurn = !blocked && ((sessionPolicy ?? error.profilePolicy)?.keepsFailedTurn ?? false)
        endTurn(turn, keeping: keepsFailedTurn && !cancelled ? error.entries : nil)
        continuation.finish(throwing: SessionErrors.reported(error.error, generationErrors: reportsGenerationErrors))
      }
    }
    outcome.task = task
    continuation.onTermination = { [weak self] termination in
      guard case .cancelled = termination else { return }
      task.cancel()
      // A cancelled turn ends now, so the next request need not wait for the executor to notice.
      self?.endTurn(turn)
    }
    return ResponseStream(events: events, outcome: outcome)
  }
}
