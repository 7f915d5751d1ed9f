import FoundationModels

// The example of docs/PROVIDERS.md, compiled and run here so that the page stays true.

/// A model that answers every prompt with the prompt's own text.
struct EchoModel: LanguageModel {
  typealias Executor = EchoExecutor

  var prefix = "You said: "

  var capabilities: LanguageModelCapabilities { LanguageModelCapabilities(capabilities: []) }
  var executorConfiguration: EchoExecutor.Configuration { EchoExecutor.Configuration() }
}

struct EchoExecutor: LanguageModelExecutor {
  struct Configuration: Hashable, Sendable {}

  init(configuration: Configuration) throws {}

  func respond(
    to request: LanguageModelExecutorGenerationRequest, model: EchoModel,
    streamingInto channel: LanguageModelExecutorGenerationChannel
  ) async throws {
    // The new prompt is the transcript's last prompt entry.
    guard case .prompt(let prompt)? = request.transcript.last(where: { if case .prompt = $0 { true } else { false } })
    else { return }
    let words = (model.prefix + prompt.segments.map(\.description).joined()).split(separator: " ")
    for (index, word) in words.enumerated() {
      await channel.send(.response(action: .appendText((index == 0 ? "" : " ") + word, tokenCount: 1)))
    }
    await channel.send(
      .response(
        action: .updateUsage(
          input: .init(totalTokenCount: request.transcript.count, cachedTokenCount: 0),
          output: .init(totalTokenCount: words.count, reasoningTokenCount: 0))))
  }
}
