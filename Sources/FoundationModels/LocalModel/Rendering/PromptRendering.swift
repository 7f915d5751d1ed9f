// How the value types become the text a chat template feeds the model.
//
// For the session and engine authors. Everything here is internal and model-free; a chat
// template (ChatML for SmolLM2 and Qwen) wraps these strings in its turn markers.
//
// - `Instructions.text` / `Prompt.text`: builder components joined with "\n"; structured
//   (Generable) content as compact JSON (see `SegmentJoining`). Record `segments` in the
//   transcript, render `text` (or `SegmentJoining.text(of:)` for transcript segments).
// - `Transcript.Entry.chatRole` and `renderedText`: one chat message per entry — instructions
//   are the system message, prompts the user's, responses the assistant's, tool outputs the
//   `tool` role. Tool calls are an assistant message; render them with
//   `Transcript.ToolCall.functionCallJSON` inside the template's `<tool_call>` block.
// - `GenerationSchema.jsonString`: the schema as compact JSON in Apple's dialect (properties in
//   declaration order, `x-order`, `$defs`). With `includeSchemaInPrompt: true`, append it to the
//   prompt, for example "Respond with JSON that follows this schema: <schema>". It is also what
//   `tokenCount(for: schema)` should count.
// - `Transcript.ToolDefinition.functionJSON`: one tool as
//   `{"type":"function","function":{"name":…,"description":…,"parameters":<schema>}}`, the form
//   Qwen's template lists, one per line, inside `<tools></tools>` in the system message. Only
//   tools whose `includesSchemaInInstructions` is true go there.
// - `GenerationSchema.root` / `definitions` (`GenerationSchemaNode`): what guided decoding compiles.
//   Alternatively hand `GenerationSchema.jsonString` to GuidedDecoding's JSON Schema parser:
//   properties appear in declaration order in the text, and the Apple-only keyword `x-order`
//   must be accepted as an annotation there. Regex patterns are in `Regex._literalPattern`'s
//   canonical syntax (for example `\-` for a literal hyphen); `GenerationSchema.unsupportedPatterns`
//   is not in the JSON: when it is not empty, throw `unsupportedGuide`.
// - `GeneratedContent(json:)`: call it with the cumulative output after each token to build
//   `PartiallyGenerated` snapshots; it accepts any prefix of valid JSON.
// - `GenerationOptions.SamplingMode.kind`: `.greedy`, `.randomTopK(_:seed:)`, `.randomProbabilityThreshold(_:seed:)`.

extension Transcript.Entry {
  /// The chat-template role of this entry: `system`, `user`, `assistant` or `tool`.
  var chatRole: String {
    switch self {
    case .instructions: return "system"
    case .prompt: return "user"
    case .toolCalls, .response, .reasoning: return "assistant"
    case .toolOutput: return "tool"
    }
  }

  /// The entry's message text; tool calls are one `functionCallJSON` per line.
  var renderedText: String {
    switch self {
    case .instructions(let instructions): return SegmentJoining.text(of: instructions.segments)
    case .prompt(let prompt): return SegmentJoining.text(of: prompt.segments)
    case .toolCalls(let calls): return calls.map(\.functionCallJSON).joined(separator: "\n")
    case .toolOutput(let output): return SegmentJoining.text(of: output.segments)
    case .response(let response): return SegmentJoining.text(of: response.segments)
    case .reasoning(let reasoning): return reasoning.description
    }
  }
}

extension Transcript.ToolDefinition {
  /// The tool in the OpenAI/Qwen function form, as compact JSON.
  var functionJSON: String {
    #"{"type":"function","function":{"name":"# + JSONWriter.quoted(name) + #","description":"#
      + JSONWriter.quoted(description) + #","parameters":"# + parameters.jsonString + "}}"
  }
}

extension Transcript.ToolCall {
  /// The call as `{"name":…,"arguments":{…}}`, the body of Qwen's `<tool_call>` block.
  var functionCallJSON: String {
    #"{"name":"# + JSONWriter.quoted(toolName) + #","arguments":"# + arguments.jsonString + "}"
  }
}
