/// One message of a conversation, as a chat template sees it.
public struct ChatMessage: Sendable, Equatable {
  public enum Role: String, Sendable {
    case system, user, assistant, tool
  }

  /// A call the assistant made to a tool, with its arguments as a JSON object.
  public struct ToolCall: Sendable, Equatable {
    public var name: String
    public var argumentsJSON: String

    public init(name: String, argumentsJSON: String) {
      self.name = name
      self.argumentsJSON = argumentsJSON
    }
  }

  public var role: Role
  public var content: String
  /// Tool calls of an assistant message.
  public var toolCalls: [ToolCall]

  public init(role: Role, content: String, toolCalls: [ToolCall] = []) {
    self.role = role
    self.content = content
    self.toolCalls = toolCalls
  }
}

/// Prompt text split into template text (which may contain control tokens) and content (which
/// never does), so each part is tokenized the right way.
public struct RenderedPrompt: Sendable, Equatable {
  public struct Piece: Sendable, Equatable {
    public var text: String
    /// Template text: control-token names in it become control tokens.
    public var isControl: Bool
  }

  public private(set) var pieces: [Piece] = []

  public init() {}

  /// The whole prompt as one string.
  public var text: String { pieces.map(\.text).joined() }

  mutating func control(_ text: String) { append(text, isControl: true) }

  mutating func content(_ text: String) { append(text, isControl: false) }

  private mutating func append(_ text: String, isControl: Bool) {
    guard !text.isEmpty else { return }
    if let last = pieces.last, last.isControl == isControl {
      pieces[pieces.count - 1].text += text
    } else {
      pieces.append(Piece(text: text, isControl: isControl))
    }
  }
}

extension TokenModel {
  /// Tokenizes a rendered prompt: template text with control tokens, content as plain text.
  /// The default implementation, without caching.
  public func tokenize(_ prompt: RenderedPrompt) -> [Token] {
    prompt.pieces.flatMap { tokenize($0.text, parseSpecial: $0.isControl) }
  }
}
