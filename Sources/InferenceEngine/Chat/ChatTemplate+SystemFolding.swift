extension ChatTemplate {
  /// The conversation with its system message put before the first user message's text, or
  /// nil when it has no system message.
  static func foldingSystemMessage(_ messages: [ChatMessage]) -> [ChatMessage]? {
    guard let first = messages.first, first.role == .system else { return nil }
    var rest = Array(messages.dropFirst())
    if let user = rest.firstIndex(where: { $0.role == .user }) {
      rest[user].content = first.content + "\n\n" + rest[user].content
    } else {
      rest.insert(ChatMessage(role: .user, content: first.content), at: 0)
    }
    return rest
  }
}
