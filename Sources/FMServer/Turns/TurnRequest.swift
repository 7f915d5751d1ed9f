import Foundation
import FoundationModels
import JSON

/// What a request of every API becomes: one turn of the served model — the conversation so far,
/// the tools it may call, the schema its answer must satisfy, sampling and stop texts.
struct TurnRequest: Sendable {
  var transcript: Transcript
  /// The tools the prompt shows: all the request's, whichever the tool choice forces, so the
  /// prompt stays a prefix of the next turn's.
  var enabledTools: [Transcript.ToolDefinition]
  /// The one tool a named tool choice makes the model call, if any.
  var forcedTool: String? = nil
  /// At most one call (`parallel_tool_calls: false`, `disable_parallel_tool_use`).
  var oneToolCall = false
  var schema: GenerationSchema?
  var options: GenerationOptions
  /// Texts that end the answer where they appear (not returned).
  var stop: [String] = []
  /// The chat template's own variables (`chat_template_kwargs`).
  var templateVariables: JSONValue? = nil
  /// How much a thinking model thinks; nil leaves its template's default.
  var reasoningLevel: ContextOptions.ReasoningLevel? = nil

  /// The request the model's executor answers.
  ///
  /// The answer's schema constrains the decoding and is not added to the prompt, unlike a
  /// session's default (`includeSchemaInPrompt: true`): a server's prompt is what the client
  /// sent (llama-server and vLLM do the same), so the prompt's token count is theirs and a
  /// client that wants the model to read the schema puts it in a message. The schema would also
  /// cost every request its tokens twice over: evaluated with the prompt, then attended to by
  /// every token generated.
  var executorRequest: LanguageModelExecutorGenerationRequest {
    LanguageModelExecutorGenerationRequest(
      id: UUID(), transcript: transcript, enabledTools: enabledTools, schema: schema, generationOptions: options,
      contextOptions: ContextOptions(includeSchemaInPrompt: false, reasoningLevel: reasoningLevel),
      metadata: ChatTemplateVariables.metadata(templateVariables).merging(
        CallableTools.metadata(forcedTool.map { [$0] }, oneCall: oneToolCall), uniquingKeysWith: { first, _ in first }))
  }
}

extension TurnRequest {
  /// A tool choice's calling mode for a request with or without tools: none without tools.
  /// - Throws: `APIError` when the choice asks for a call and the request has no tools.
  static func callingMode(_ mode: GenerationOptions.ToolCallingMode, hasTools: Bool) throws
    -> GenerationOptions.ToolCallingMode?
  {
    guard hasTools || mode != .required else {
      throw APIError.invalid("'tool_choice' asks for a tool call, and the request has no 'tools'", param: "tool_choice")
    }
    return hasTools ? mode : nil
  }

  /// `name`, the tool a named tool choice forces, which must be one of `tools`.
  /// - Throws: `APIError` naming `param` when it is not.
  static func forcedTool(_ name: String, in tools: [Transcript.ToolDefinition], param: String) throws -> String {
    guard tools.contains(where: { $0.name == name }) else {
      throw APIError.invalid("'tool_choice' names '\(name)', which is not in 'tools'", param: param)
    }
    return name
  }
}
