import InferenceEngine

/// The outcome of a generation collected from its stream.
public struct RecordedGeneration: Sendable {
  public var text: String
  public var summary: GenerationSummary
  public var tokens: [Token] { summary.tokens }
}

extension InferenceSession {
  /// Runs a request to the end and returns its text and summary.
  public func record(_ request: GenerationRequest) async throws -> RecordedGeneration {
    var text = ""
    for try await event in generate(request) {
      switch event {
      case .text(let piece): text += piece
      case .finished(let summary): return RecordedGeneration(text: text, summary: summary)
      case .logProbabilities, .promptLogProbabilities: break
      }
    }
    throw EngineError(.decodeFailed, "the stream ended without a summary")
  }

  /// Renders a chat with the model's template and tokenizes it.
  /// The test models have templates that render any of the tests' conversations.
  public func promptTokens(_ messages: [ChatMessage]) -> [Token] {
    guard let template = model.chatTemplate else { preconditionFailure("the test model has no chat template") }
    return model.tokenize(try! template.render(messages))
  }
}
