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
  /// Where parts that other prompts may share end (the system turn), as counts of pieces.
  public private(set) var partEnds: [Int] = []

  public init() {}

  /// The whole prompt as one string.
  public var text: String { pieces.map(\.text).joined() }

  mutating func control(_ text: String) { append(text, isControl: true) }

  mutating func content(_ text: String) { append(text, isControl: false) }

  /// Ends a part here (see `GenerationRequest.promptBoundaries`).
  mutating func endPart() {
    if !pieces.isEmpty && partEnds.last != pieces.count { partEnds.append(pieces.count) }
  }

  private mutating func append(_ text: String, isControl: Bool) {
    guard !text.isEmpty else { return }
    // Pieces on either side of a part's end stay apart, so the end falls between tokens.
    if let last = pieces.last, last.isControl == isControl, partEnds.last != pieces.count {
      pieces[pieces.count - 1].text += text
    } else {
      pieces.append(Piece(text: text, isControl: isControl))
    }
  }

  /// The prompt of pieces `range`.
  fileprivate func slice(_ range: Range<Int>) -> RenderedPrompt {
    var part = RenderedPrompt()
    part.pieces = Array(pieces[range])
    return part
  }
}

extension TokenModel {
  /// Tokenizes a rendered prompt: template text with control tokens, content as plain text.
  ///
  /// The default implementation, without caching.
  public func tokenize(_ prompt: RenderedPrompt) -> [Token] {
    prompt.pieces.flatMap { tokenize($0.text, parseSpecial: $0.isControl) }
  }

  /// Tokenizes a rendered prompt, with the positions where its parts end
  /// (`GenerationRequest.promptBoundaries`).
  ///
  /// Pieces are tokenized one by one, so a part's tokens are the same alone as in the whole prompt.
  public func tokenizeInParts(_ prompt: RenderedPrompt) -> (tokens: [Token], boundaries: [Int]) {
    var tokens: [Token] = []
    var boundaries: [Int] = []
    var start = 0
    for end in prompt.partEnds + [prompt.pieces.count] {
      tokens += tokenize(prompt.slice(start..<end))
      if end < prompt.pieces.count { boundaries.append(tokens.count) }
      start = end
    }
    return (tokens, boundaries)
  }
}
