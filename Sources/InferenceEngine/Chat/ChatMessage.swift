/// One message of a conversation, as a chat template sees it.
public struct ChatMessage: Sendable, Equatable {
  public enum Role: String, Sendable {
    case system, user, assistant, tool
  }

  /// A call the assistant made to a tool, with its arguments as a JSON object.
  public struct ToolCall: Sendable, Equatable {
    public var name: String
    public var argumentsJSON: String
    /// The call's id, which its output refers to (`tool_call_id`), when there is one.
    public var id: String?

    public init(name: String, argumentsJSON: String, id: String? = nil) {
      self.name = name
      self.argumentsJSON = argumentsJSON
      self.id = id
    }
  }

  public var role: Role
  public var content: String
  /// Tool calls of an assistant message.
  public var toolCalls: [ToolCall]
  /// The thinking that came before an assistant message's answer (`reasoning_content`).
  public var reasoning: String?
  /// For a tool's output: the tool's name and the id of the call it answers.
  public var toolName: String?
  public var toolCallID: String?

  public init(
    role: Role, content: String, toolCalls: [ToolCall] = [], reasoning: String? = nil, toolName: String? = nil,
    toolCallID: String? = nil
  ) {
    self.role = role
    self.content = content
    self.toolCalls = toolCalls
    self.reasoning = reasoning
    self.toolName = toolName
    self.toolCallID = toolCallID
  }
}
