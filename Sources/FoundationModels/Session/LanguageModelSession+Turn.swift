import Foundation

/// How a turn's growing text becomes content: free text, or JSON of a schema.
struct ContentFormat: Sendable {
  /// The schema the answer follows, or nil for free text.
  let schema: GenerationSchema?

  static let text = ContentFormat(schema: nil)

  /// The answer so far as generated content.
  func rawContent(_ text: String) throws -> GeneratedContent {
    guard schema != nil else { return GeneratedContent(kind: .string(text)) }
    return try GeneratedContent(json: text)
  }

  /// The transcript segment that records a complete answer.
  func segment(_ text: String, rawContent: GeneratedContent) -> Transcript.Segment {
    guard let schema else { return .text(Transcript.TextSegment(content: text)) }
    return .structure(
      Transcript.StructuredSegment(source: Transcript.ResponseFormat(schema: schema).name, content: rawContent))
  }
}

extension LanguageModelSession {
  /// Runs one turn: checks the session is free, asks the executor for the answer, streams
  /// snapshots, and commits the prompt and response to the transcript only when it succeeds.
  func startTurn<Content: Generable>(
    prompt: Prompt, format: ContentFormat, includeSchemaInPrompt: Bool, options: GenerationOptions,
    as type: Content.Type
  ) -> ResponseStream<Content> {
    let (events, continuation) = AsyncThrowingStream.makeStream(of: ResponseStream<Content>.Event.self)
    let outcome = TurnOutcome<Content>()
    guard let turn = beginTurn() else {
      continuation.finish(
        throwing: GenerationError.concurrentRequests(
          .init(debugDescription: "This session is still responding to an earlier request; wait for it or use another session.")))
      return ResponseStream(events: events, outcome: outcome)
    }
    let promptEntry = Transcript.Entry.prompt(
      Transcript.Prompt(
        segments: prompt.segments, options: options,
        responseFormat: format.schema.map { Transcript.ResponseFormat(schema: $0) }))
    var working = transcript
    working.entries.append(promptEntry)
    let request = ProviderRequest(
      transcript: working, options: options, schema: format.schema, includeSchemaInPrompt: includeSchemaInPrompt)
    let executor = executor
    let task = Task {
      do {
        var text = ""
        var usage: Usage?
        for try await event in executor.respond(to: request) {
          switch event {
          case .text(let piece):
            text += piece
            let raw = try format.rawContent(text)
            if let partial = try? Content.PartiallyGenerated(raw) {
              continuation.yield(.snapshot(.init(content: partial, rawContent: raw)))
            }
          case .finished(let finished):
            usage = finished
          }
        }
        try Task.checkCancellation()
        guard let usage else { throw CancellationError() }
        let raw = try format.rawContent(text)
        guard raw.isComplete else {
          throw GenerationError.decodingFailure(
            .init(debugDescription: "Generation ended before the output was complete: \(text)"))
        }
        let content: Content
        do {
          content = try Content(raw)
        } catch {
          throw GenerationError.decodingFailure(
            .init(debugDescription: "The output could not be decoded as \(Content.self): \(error)"))
        }
        let responseEntry = Transcript.Entry.response(
          Transcript.Response(assetIDs: [], segments: [format.segment(text, rawContent: raw)]))
        guard let entries = endTurn(turn, appending: [promptEntry, responseEntry]) else { throw CancellationError() }
        continuation.yield(
          .completed(Response(content: content, rawContent: raw, transcriptEntries: entries, usage: usage)))
        continuation.finish()
      } catch {
        endTurn(turn)
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { [weak self] termination in
      guard case .cancelled = termination else { return }
      task.cancel()
      // A cancelled turn ends now, so the next request need not wait for the engine to notice.
      self?.endTurn(turn)
    }
    return ResponseStream(events: events, outcome: outcome)
  }
}
