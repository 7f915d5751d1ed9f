import FoundationModels

extension LanguageModelSession.Response {
  /// The local model's figures of this response (zeros when another model answered).
  var figures: LocalModelFigures {
    LocalModelFigures(transcriptEntries) ?? LocalModelFigures(timeToFirstToken: 0, generationSeconds: 0)
  }

  var inputTokens: Int { usage.input.totalTokenCount }
  var cachedInputTokens: Int { usage.input.cachedTokenCount }
  var outputTokens: Int { usage.output.totalTokenCount }
  /// Output tokens per second after the first one.
  var decodeRate: Double { figures.tokensPerSecond(outputTokens: outputTokens) }
}
