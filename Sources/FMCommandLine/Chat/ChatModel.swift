import FoundationModels
import RemoteModel

/// The model a chat runs on: the local model, or a server's (`--endpoint`).
///
/// The chat needs its context size and token counts (the status line, summarising) and sessions on
/// it.
protocol ChatModel: Sendable {
  /// Tokens the context holds.
  var contextSize: Int { get }
  /// The tokens `entries` take in the context.
  func tokenCount(for entries: [Transcript.Entry]) async throws -> Int
  /// A new chat on this model.
  func session(tools: [any Tool], instructions: String?) -> LanguageModelSession
  /// A chat on this model continuing `transcript`.
  func session(tools: [any Tool], transcript: Transcript) -> LanguageModelSession
}

extension SystemLanguageModel: ChatModel {
  func tokenCount(for entries: [Transcript.Entry]) async throws -> Int {
    try await tokenCount(for: entries[...])
  }

  func session(tools: [any Tool], instructions: String?) -> LanguageModelSession {
    LanguageModelSession(model: self, tools: tools, instructions: instructions)
  }

  func session(tools: [any Tool], transcript: Transcript) -> LanguageModelSession {
    LanguageModelSession(model: self, tools: tools, transcript: transcript)
  }
}

/// A server's model in the chat: its context size as the server reports it (4,096 when it does
/// not), token counts from the server's tokenizer over the entries' text (each message's
/// chat-template markers are not counted, so the counts are a little low).
struct RemoteChatModel: ChatModel {
  let model: OpenAICompatibleLanguageModel
  let contextSize: Int
  /// The guardrails the chat's sessions on the server's model apply (`/set guardrails`).
  var guardrails: SystemLanguageModel.Guardrails = .default

  /// The chat model of `model`, asking the server for its context size.
  static func connecting(
    to model: OpenAICompatibleLanguageModel, guardrails: SystemLanguageModel.Guardrails = .default
  ) async throws -> RemoteChatModel {
    RemoteChatModel(model: model, contextSize: try await model.contextSize() ?? 4096, guardrails: guardrails)
  }

  /// This chat model with other guardrails.
  func with(guardrails: SystemLanguageModel.Guardrails) -> RemoteChatModel {
    var copy = self
    copy.guardrails = guardrails
    return copy
  }

  func tokenCount(for entries: [Transcript.Entry]) async throws -> Int {
    let text = entries.map(TranscriptText.text(of:)).joined(separator: "\n")
    return text.isEmpty ? 0 : try await model.tokenCount(for: text)
  }

  func session(tools: [any Tool], instructions: String?) -> LanguageModelSession {
    LanguageModelSession(model: model.guardrails(guardrails), tools: tools, instructions: instructions)
  }

  func session(tools: [any Tool], transcript: Transcript) -> LanguageModelSession {
    LanguageModelSession(model: model.guardrails(guardrails), tools: tools, transcript: transcript)
  }
}
