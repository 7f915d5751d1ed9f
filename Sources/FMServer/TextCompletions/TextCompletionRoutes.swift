import FoundationModels
import JSON

/// OpenAI's legacy `POST /v1/completions` on the served model: a plain text completion of the
/// prompt as it is (no chat template), streamed or not, through the slot pool as every
/// generation is.
struct TextCompletionRoutes {
  let model: ServedModel
  /// The CORS header fields every answer carries.
  let headers: [(name: String, value: String)]

  /// Answers `request`; returns the summary for the metrics.
  ///
  /// A stream begins (status 200) with the model's first output, so that until then the request
  /// may still wait for a slot or be refused with its own status; an error after it began is
  /// sent as an `error` event, and the stream ends.
  func create(_ request: TextCompletionRequest, writer: ResponseWriter) async throws -> CompletionRunner.Summary {
    let runner = TextCompletionRunner(model: model)
    let prepared = try await runner.prepare(request)
    let objects = TextCompletionObjects(model: model.id, reportsTokens: request.logProbabilities != nil)
    guard request.stream else {
      var text = ""
      var tokens: [TextCompletionRunner.ScoredToken] = []
      let summary = try await runner.run(prepared, whole: true) { piece in
        text += piece.text
        tokens += piece.tokens
      }
      try await writer.send(
        HTTPResponse.json(.ok, objects.completion(text: text, tokens: tokens, summary: summary), headers: headers))
      return summary
    }
    let stream = EventStream(writer: writer, headers: headers)
    do {
      let summary = try await runner.run(prepared) { piece in try await stream.send(data: objects.chunk(piece)) }
      try await stream.send(data: objects.finalChunk(summary))
      if request.includeUsage { try await stream.send(data: objects.usageChunk(summary)) }
      try await stream.send(data: "[DONE]")
      try await stream.end()
      return summary
    } catch  where stream.hasStarted && EventStream.reports(error) {
      try await stream.send(data: OpenAIServer.apiError(for: error, fields: .textCompletions).body)
      try await stream.end()
      throw error
    }
  }
}
