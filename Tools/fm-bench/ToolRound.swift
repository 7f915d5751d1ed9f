import FoundationModels
import JSON

/// The tool round P12 (a) gives both sides to continue from: a prompt's expected calls, each
/// completed with its unchecked arguments, and the set's output for each.
struct ToolRound {
  /// One call of the round and the tool's output for it.
  struct Call {
    var id: String
    var tool: String
    /// The arguments as JSON text, in the order of the tool's schema properties.
    var arguments: String
    var output: String
  }

  var calls: [Call]

  /// - Throws: `BenchError` when the prompt expects no call, names a tool the set lacks, or
  ///   gives arguments the tool's schema does not accept.
  init(_ prompt: ToolUsePrompt, in set: ToolUseSet) throws {
    guard !prompt.expected.isEmpty else { throw BenchError("\(prompt.id): no expected call to replay") }
    calls = try prompt.expected.enumerated().map { index, expected in
      guard let tool = set.tool(named: expected.tool) else {
        throw BenchError("\(prompt.id): the set has no tool \(expected.tool)")
      }
      let given = expected.arguments + expected.unchecked
      let ordered = tool.propertyNames.compactMap { name in given.first { $0.key == name } }
      let arguments = JSONValue.object(ordered + given.filter { !tool.propertyNames.contains($0.key) })
      guard tool.accepts(arguments.compactText) else {
        throw BenchError(
          "\(prompt.id): \(tool.name)(\(arguments.compactText)) breaks the tool's schema; complete it with 'unchecked'")
      }
      return Call(
        id: "call_\(index + 1)", tool: tool.name, arguments: arguments.compactText,
        output: tool.output(for: arguments))
    }
  }

  /// The round as transcript entries: the calls, then an output entry for each.
  func transcriptEntries() throws -> [Transcript.Entry] {
    let toolCalls = try calls.map { call in
      Transcript.ToolCall(id: call.id, toolName: call.tool, arguments: try GeneratedContent(json: call.arguments))
    }
    let outputs = calls.map { call in
      Transcript.Entry.toolOutput(
        Transcript.ToolOutput(id: call.id, toolName: call.tool, segments: [.text(.init(content: call.output))]))
    }
    return [.toolCalls(Transcript.ToolCalls(toolCalls))] + outputs
  }

  /// The round as OpenAI chat messages: an assistant message with the `tool_calls`, then a
  /// `tool` message for each.
  var chatMessages: [JSONValue] {
    let toolCalls = calls.map { ChatCompletionsToolTurn.toolCall(id: $0.id, name: $0.tool, arguments: $0.arguments) }
    return [ChatCompletionsToolTurn.assistantMessage("", toolCalls: toolCalls)]
      + calls.map { ChatCompletionsToolTurn.toolMessage(callID: .string($0.id), $0.output) }
  }
}
