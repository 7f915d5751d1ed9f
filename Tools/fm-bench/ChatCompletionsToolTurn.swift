import FMTestSupport
import Foundation
import GuidedDecoding
import JSON

/// One turn of the tool-use set on llama-server's OpenAI chat completions (P12's reference):
/// the prompt with the set's tools (and, for P12 (a), a given tool round after it); while the
/// answer has `tool_calls`, the fake tools' outputs go back as `tool` messages and the server is
/// asked again.
struct ChatCompletionsToolTurn {
  let server: ServerProcess
  let set: ToolUseSet
  let maximumTokens: Int
  /// Requests in one turn at most, as the session's loop allows (16 rounds).
  let maximumRounds = 16

  /// Runs `prompt` to its final answer, greedy, non-streaming, and times it.
  func run(_ prompt: String) async -> ToolUseOutcome {
    await run(from: opening(prompt))
  }

  /// Continues from `prompt` followed by `round` (its calls and their outputs) to the final
  /// answer, and times it; the outcome's calls are those made after the round.
  func run(_ prompt: String, after round: ToolRound) async -> ToolUseOutcome {
    await run(from: opening(prompt) + round.chatMessages)
  }

  private func opening(_ prompt: String) -> [JSONValue] {
    [Self.message("system", set.instructions), Self.message("user", prompt)]
  }

  private func run(from messages: [JSONValue]) async -> ToolUseOutcome {
    var outcome = ToolUseOutcome()
    let start = DispatchTime.now()
    do {
      try await converse(messages, into: &outcome)
    } catch {
      outcome.error = "\(error)"
    }
    outcome.seconds = elapsed(since: start)
    return outcome
  }

  /// The requests of one turn, recording calls, tokens and the answer in `outcome`.
  private func converse(_ opening: [JSONValue], into outcome: inout ToolUseOutcome) async throws {
    var messages = opening
    var seen: [String: Int] = [:]
    for _ in 0..<maximumRounds {
      let answer = try await post(body(messages))
      let timings = answer["timings"]
      outcome.evaluatedPromptTokens += timings?["prompt_n"]?.intValue ?? 0
      outcome.outputTokens += timings?["predicted_n"]?.intValue ?? 0
      guard let message = answer["choices"]?.arrayValue?.first?["message"] else {
        throw BenchError("no message in \(answer.compactText.prefix(300))")
      }
      let content = message["content"]?.stringValue ?? ""
      let toolCalls = message["tool_calls"]?.arrayValue ?? []
      guard !toolCalls.isEmpty else {
        outcome.answer = content
        outcome.unparsedCalls = content.components(separatedBy: "<tool_call>").count - 1
        return
      }
      messages.append(Self.assistantMessage(content, toolCalls: toolCalls))
      for call in toolCalls {
        let name = call["function"]?["name"]?.stringValue ?? ""
        let arguments = call["function"]?["arguments"]?.stringValue ?? ""
        outcome.calls.append(MadeCall(name: name, arguments: arguments))
        seen[name + arguments, default: 0] += 1
        if seen[name + arguments] == 3 {
          throw BenchError("the same call a third time in one turn: \(name)(\(arguments))")
        }
        let output =
          set.tool(named: name)?.output(for: try? JSONValue(parsing: arguments)) ?? "There is no tool named \(name)."
        messages.append(Self.toolMessage(callID: call["id"] ?? .string(""), output))
      }
    }
    throw BenchError("no final answer after \(maximumRounds) requests")
  }

  /// The request: the conversation so far with the set's tools, temperature 0, the answer's
  /// token budget, parallel calls allowed (as the session allows them).
  private func body(_ messages: [JSONValue]) -> JSONValue {
    .object([
      .init(key: "messages", value: .array(messages)),
      .init(key: "tools", value: .array(set.tools.map(\.openAIFunction))),
      .init(key: "parallel_tool_calls", value: .bool(true)),
      .init(key: "temperature", value: .number(.zero)),
      .init(key: "max_tokens", value: .number(ExactDecimal(maximumTokens))),
      .init(key: "stream", value: .bool(false)),
    ])
  }

  private static func message(_ role: String, _ content: String) -> JSONValue {
    .object([.init(key: "role", value: .string(role)), .init(key: "content", value: .string(content))])
  }

  /// An assistant message with `toolCalls` (elements of `tool_calls`) and its text, if any.
  static func assistantMessage(_ content: String, toolCalls: [JSONValue]) -> JSONValue {
    .object([
      .init(key: "role", value: .string("assistant")),
      .init(key: "content", value: content.isEmpty ? .null : .string(content)),
      .init(key: "tool_calls", value: .array(toolCalls)),
    ])
  }

  /// A `tool_calls` element: a function call with its arguments as JSON text.
  static func toolCall(id: String, name: String, arguments: String) -> JSONValue {
    .object([
      .init(key: "id", value: .string(id)), .init(key: "type", value: .string("function")),
      .init(
        key: "function",
        value: .object([.init(key: "name", value: .string(name)), .init(key: "arguments", value: .string(arguments))])),
    ])
  }

  /// The `tool` message that answers the call with id `callID`.
  static func toolMessage(callID: JSONValue, _ output: String) -> JSONValue {
    .object([
      .init(key: "role", value: .string("tool")), .init(key: "tool_call_id", value: callID),
      .init(key: "content", value: .string(output)),
    ])
  }

  /// POSTs `body` to the server's chat completions and parses the JSON answer.
  ///
  /// A blocking socket on a thread of its own, not `URLSession`: on Linux the latter (libcurl
  /// under dispatch sources) kept a core busy while it waited, which llama-server then lacked
  /// (its turns took several times as long as alone).
  /// - Throws: `BenchError` with the status and body when the server answers with an error.
  private func post(_ body: JSONValue) async throws -> JSONValue {
    let request = RawHTTPConnection.post("/v1/chat/completions", body.compactText)
    let port = server.baseURL.port ?? 80
    let response = try await onThread {
      let connection = try RawHTTPConnection(port: port, timeout: 600)
      defer { connection.close() }
      try connection.send(request)
      return try connection.readResponse()
    }
    guard response.status == 200 else {
      throw BenchError(
        "llama-server answered \(response.status): \(String(decoding: response.body.prefix(500), as: UTF8.self))")
    }
    return try JSONValue(parsing: response.body)
  }
}
