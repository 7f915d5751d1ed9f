import Foundation
import InferenceEngine

/// Turns a transcript into the chat messages a model's template renders.
///
/// - Instructions become the system message, with the tool definitions in the tool block of
///   `ToolCallFormat` (Qwen2.5's own; the documented generic format for other models).
/// - Prompts become user messages; the schema of the current request is appended to the last
///   prompt when `includeSchemaInPrompt` is true. Earlier prompts are rendered without their
///   schema, so a transcript renders the same way whatever options its turns had.
/// - Responses, tool calls and tool outputs become assistant and tool messages; a response
///   followed by tool calls is one assistant message, as the model wrote it.
struct TranscriptRenderer {
  var useCase: SystemLanguageModel.UseCase = .general

  static let taggingInstructions =
    "You tag content. Answer only with tags: topics, emotions, actions or objects, each one to a few lowercase words."

  /// - Parameter enabledTools: the tools of this request, when they are not the instructions'
  ///   (a profile changes them from round to round).
  func messages(
    for entries: some Collection<Transcript.Entry>, schemaForLastPrompt schema: GenerationSchema? = nil,
    enabledTools: [Transcript.ToolDefinition]? = nil
  ) -> (messages: [ChatMessage], tools: [String]) {
    var messages: [ChatMessage] = []
    var tools: [String] = []
    var lastPromptIndex = entries.startIndex
    var reasoning: String?
    for index in entries.indices { if case .prompt = entries[index] { lastPromptIndex = index } }
    if useCase == .contentTagging, !entries.contains(where: \.isInstructions) {
      messages.append(ChatMessage(role: .system, content: Self.taggingInstructions))
    }
    for index in entries.indices {
      switch entries[index] {
      case .instructions(let instructions):
        var text = SegmentJoining.text(of: instructions.segments)
        if useCase == .contentTagging { text = Self.taggingInstructions + "\n" + text }
        tools = (enabledTools ?? instructions.toolDefinitions).map(Self.toolJSON)
        messages.append(ChatMessage(role: .system, content: text))
      case .prompt(let prompt):
        var text = SegmentJoining.text(of: prompt.segments)
        if index == lastPromptIndex, let schema {
          text += "\n\n" + Self.schemaInstruction(schema)
        }
        messages.append(ChatMessage(role: .user, content: text))
      case .response(let response):
        messages.append(
          ChatMessage(role: .assistant, content: SegmentJoining.text(of: response.segments), reasoning: reasoning))
        reasoning = nil
      case .toolCalls(let calls):
        let toolCalls = calls.map {
          ChatMessage.ToolCall(name: $0.toolName, argumentsJSON: $0.arguments.jsonString, id: Self.callID($0.id))
        }
        if index > entries.startIndex, case .response = entries[entries.index(index, offsetBy: -1)],
          let last = messages.indices.last, messages[last].role == .assistant, messages[last].toolCalls.isEmpty
        {
          messages[last].toolCalls = toolCalls
        } else {
          messages.append(ChatMessage(role: .assistant, content: "", toolCalls: toolCalls, reasoning: reasoning))
        }
        reasoning = nil
      case .toolOutput(let output):
        messages.append(
          ChatMessage(
            role: .tool, content: SegmentJoining.text(of: output.segments), toolName: output.toolName,
            toolCallID: Self.callID(output.id)))
      case .reasoning(let thought):
        reasoning = (reasoning.map { $0 + "\n" } ?? "") + SegmentJoining.text(of: thought.segments)
      }
    }
    return (messages, tools)
  }

  /// A call's id as templates are given it (`id`, and `tool_call_id` of its output, whose id is
  /// the call's): its first 9 letters and digits, the length Mistral's templates require.
  static func callID(_ id: String) -> String {
    String(id.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(9))
  }

  /// The text that asks for JSON of a schema, as put into a prompt: the schema's outline
  /// (see `SchemaOutline`), or its JSON when it has no outline.
  static func schemaInstruction(_ schema: GenerationSchema) -> String {
    let json = schemaJSON(schema)
    guard let outline = SchemaOutline.text(ofJSONSchema: json) else {
      return "Respond with JSON that follows this JSON schema:\n" + json
    }
    return "Respond with JSON of this shape:\n" + outline
  }

  static func schemaJSON(_ schema: GenerationSchema) -> String {
    schema.jsonString
  }

  /// A tool definition in the OpenAI function form Qwen's template expects; without its
  /// parameters when the tool's `includesSchemaInInstructions` is false.
  static func toolJSON(_ definition: Transcript.ToolDefinition) -> String {
    let name = jsonString(definition.name)
    let description = jsonString(definition.description)
    let parameters = definition.includesSchema ? #","parameters":"# + schemaJSON(definition.parameters) : ""
    return #"{"type":"function","function":{"name":\#(name),"description":\#(description)\#(parameters)}}"#
  }

  private static func jsonString(_ text: String) -> String {
    GeneratedContent(kind: .string(text)).jsonString
  }
}

extension Transcript.Entry {
  var isInstructions: Bool {
    if case .instructions = self { true } else { false }
  }
}

extension GenerationSchema {
  /// The text `includeSchemaInPrompt` adds to the prompt: for a server model, which sends
  /// it in the last user message, and for benchmarks that give another engine exactly the
  /// prompt this framework renders.
  package var promptInstruction: String {
    TranscriptRenderer.schemaInstruction(self)
  }
}
