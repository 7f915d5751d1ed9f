import Foundation
import FoundationModels
import JSON

/// Turns the chunks of a streamed chat completion into executor channel events: `content` into
/// the response, `reasoning_content` (llama-server, vLLM, DeepSeek) into a reasoning entry,
/// `tool_calls` fragments (by index: the id and name come first, the arguments in pieces) into
/// tool calls, and the final `usage` into the invocation's usage.
struct ChatCompletionsEvents {
  /// The answer's text so far (for schema validation at the end).
  private(set) var text = ""
  /// Whether any output has arrived (after which a failed request is not retried).
  private(set) var hasOutput = false
  /// Why the server ended the answer (`stop`, `length`, `tool_calls`), once it said.
  private(set) var finishReason: String?
  private var calls: [Int: (id: String, name: String)] = [:]
  /// Argument pieces that came before their call's name.
  private var pendingArguments: [Int: String] = [:]

  /// Sends the events of one `data:` payload into `channel`.
  /// - Throws: `RemoteModelError.protocolViolation` for a payload that is not a chunk, and the
  ///   server's error when it sends one in the stream.
  mutating func send(_ payload: String, into channel: LanguageModelExecutorGenerationChannel) async throws {
    guard let object = try? JSONValue(parsing: payload), object.isObject else {
      throw RemoteModelError.protocolViolation("an event is not a JSON object: \(payload.prefix(200))")
    }
    if object["error"] != nil {
      throw RemoteModelError.http(statusCode: 500, message: RemoteModelError.message(in: Data(payload.utf8)))
    }
    let choice = object["choices"]?.elements?.first
    if let reason = choice?["finish_reason"]?.string { finishReason = reason }
    if let delta = choice?["delta"], delta.isObject {
      if let reasoning = delta["reasoning_content"]?.string, !reasoning.isEmpty {
        hasOutput = true
        await channel.send(.reasoning(action: .appendText(reasoning, tokenCount: 0)))
      }
      if let content = delta["content"]?.string, !content.isEmpty {
        hasOutput = true
        text += content
        await channel.send(.response(action: .appendText(content, tokenCount: 0)))
      }
      for fragment in delta["tool_calls"]?.elements ?? [] where fragment.isObject {
        hasOutput = true
        if let (id, name, arguments) = try call(in: fragment) {
          await channel.send(
            .toolCalls(action: .toolCall(id: id, name: name, action: .appendArguments(arguments, tokenCount: 0))))
        }
      }
    }
    if let usage = object["usage"], usage.isObject {
      let input = LanguageModelExecutorGenerationChannel.Usage.Input(
        totalTokenCount: usage["prompt_tokens"]?.integer ?? 0,
        cachedTokenCount: usage["prompt_tokens_details"]?["cached_tokens"]?.integer ?? 0)
      let output = LanguageModelExecutorGenerationChannel.Usage.Output(
        totalTokenCount: usage["completion_tokens"]?.integer ?? 0,
        reasoningTokenCount: usage["completion_tokens_details"]?["reasoning_tokens"]?.integer ?? 0)
      if calls.isEmpty {
        await channel.send(.response(action: .updateUsage(input: input, output: output)))
      } else {
        await channel.send(.toolCalls(action: .updateUsage(input: input, output: output)))
      }
    }
  }

  /// The call a `tool_calls` fragment continues and its piece of the arguments, or nil while
  /// the call's name has not come yet.
  private mutating func call(in fragment: JSONValue) throws -> (id: String, name: String, arguments: String)? {
    let index = fragment["index"]?.integer ?? calls.count
    let function = fragment["function"]
    let arguments = function?["arguments"]?.string ?? ""
    if calls[index] == nil {
      guard let name = function?["name"]?.string, !name.isEmpty else {
        pendingArguments[index, default: ""] += arguments
        return nil
      }
      calls[index] = (fragment["id"]?.string ?? UUID().uuidString, name)
    }
    guard let call = calls[index] else { return nil }
    return (call.id, call.name, (pendingArguments.removeValue(forKey: index) ?? "") + arguments)
  }

  /// Whether the answer called a tool.
  var hasToolCalls: Bool { !calls.isEmpty }

  /// Checks the stream's end: no tool call left without a name.
  func finish() throws {
    if let index = pendingArguments.keys.first {
      throw RemoteModelError.protocolViolation("tool call \(index) has arguments but no name")
    }
  }
}
