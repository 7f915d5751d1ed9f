import Foundation

/// Sends the local model's output into the executor channel: a thinking model's thinking as
/// reasoning, text into the response, and — when the request has tools — each tool call the
/// model writes as a `toolCalls` event, with the usage and the engine's figures on the entry
/// that ends the invocation.
struct LocalOutput {
  let channel: LanguageModelExecutorGenerationChannel
  /// Splits calls from text; nil when the request has no tools.
  var splitter: ToolCallTextSplitter?
  /// Splits thinking from the answer; nil for a model that does not think here.
  var reasoning: ReasoningSplitter?
  private var madeCalls = false
  /// The id of the call announced and not yet complete.
  private var openCall: String?

  init(
    channel: LanguageModelExecutorGenerationChannel, splitter: ToolCallTextSplitter?,
    reasoning: ReasoningSplitter? = nil
  ) {
    self.channel = channel
    self.splitter = splitter
    self.reasoning = reasoning
  }

  mutating func send(_ text: String) async {
    guard reasoning != nil else { return await sendAnswer(text) }
    for piece in reasoning?.feed(text) ?? [] { await send(piece) }
  }

  private mutating func send(_ piece: ReasoningSplitter.Piece) async {
    switch piece {
    case .reasoning(let thought): await channel.send(.reasoning(action: .appendText(thought, tokenCount: 0)))
    case .answer(let text): await sendAnswer(text)
    }
  }

  private mutating func sendAnswer(_ text: String) async {
    guard splitter != nil else {
      await channel.send(.response(action: .appendText(text, tokenCount: 0)))
      return
    }
    let pieces = splitter?.feed(text) ?? []
    await send(pieces)
  }

  /// Sends what the splitter still holds.
  /// - Throws: `ToolCallSplitError` when the output ended inside a call.
  mutating func finish() async throws {
    for piece in reasoning?.finish() ?? [] { await send(piece) }
    let pieces = try splitter?.finish() ?? []
    await send(pieces)
  }

  /// Reports the invocation's usage and figures: on the response, or only the usage, on the tool
  /// calls, when the model called tools (the figures are an entry's metadata, and a response
  /// event carrying them would open an empty answer after the calls).
  func report(
    input: LanguageModelExecutorGenerationChannel.Usage.Input,
    output: LanguageModelExecutorGenerationChannel.Usage.Output, metadata: [String: any Sendable & Codable & Equatable]
  ) async {
    if madeCalls {
      await channel.send(.toolCalls(action: .updateUsage(input: input, output: output)))
    } else {
      await channel.send(.response(action: .updateUsage(input: input, output: output)))
      await channel.send(.response(action: .updateMetadata(metadata)))
    }
  }

  private mutating func send(_ pieces: [ToolCallTextSplitter.Piece]) async {
    for piece in pieces {
      switch piece {
      case .text(let text):
        await channel.send(.response(action: .appendText(text, tokenCount: 0)))
      case .opened(let name):
        // The call, as soon as its name is known: its arguments follow when complete.
        madeCalls = true
        let id = UUID().uuidString
        openCall = id
        await channel.send(
          .toolCalls(action: .toolCall(id: id, name: name, action: .appendArguments("", tokenCount: 0))))
      case .call(let name, let arguments):
        madeCalls = true
        let id = openCall ?? UUID().uuidString
        openCall = nil
        await channel.send(
          .toolCalls(action: .toolCall(id: id, name: name, action: .appendArguments(arguments, tokenCount: 0))))
      }
    }
  }
}
