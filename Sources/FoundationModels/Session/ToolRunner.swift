/// Runs the tool calls of one round: concurrently, outputs in call order.
struct ToolRunner: Sendable {
  let tools: [any Tool]

  /// The output entries of `calls`.
  /// - Throws: `LanguageModelSession.ToolCallError` when a tool throws (or its arguments do not
  ///   fit its type); `GeneratedContent.ParsingError` when the model called a tool the session
  ///   does not have.
  func outputs(for calls: Transcript.ToolCalls) async throws -> [Transcript.Entry] {
    let resolved = try calls.map { call -> (Transcript.ToolCall, any Tool) in
      guard let tool = tools.first(where: { $0.name == call.toolName }) else {
        throw GeneratedContent.ParsingError(
          rawContent: call.arguments.jsonString,
          debugDescription:
            "The model called '\(call.toolName)', which is not one of the session's tools (\(tools.map(\.name).joined(separator: ", ")))."
        )
      }
      return (call, tool)
    }
    return try await withThrowingTaskGroup(of: (Int, Transcript.Entry).self) { group in
      for (index, (call, tool)) in resolved.enumerated() {
        group.addTask {
          let segments = try await Self.call(tool, with: call.arguments)
          return (index, .toolOutput(Transcript.ToolOutput(id: call.id, toolName: call.toolName, segments: segments)))
        }
      }
      var outputs: [(Int, Transcript.Entry)] = []
      for try await output in group { outputs.append(output) }
      return outputs.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }

  private static func call<T: Tool>(_ tool: T, with arguments: GeneratedContent) async throws -> [Transcript.Segment] {
    do {
      let output = try await tool.call(arguments: try T.Arguments(arguments))
      return output.promptRepresentation.segments
    } catch let error as CancellationError {
      throw error
    } catch {
      throw LanguageModelSession.ToolCallError(tool: tool, underlyingError: error)
    }
  }
}
