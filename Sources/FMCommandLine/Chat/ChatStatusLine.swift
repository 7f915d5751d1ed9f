import FoundationModels

/// The lines the chat prints about tokens, in the book's words.
enum ChatStatusLine {
  /// `Context Window: 512/4096 tokens`, as the book's app shows it.
  static func contextWindow(used: Int, size: Int) -> String {
    "Context Window: \(used)/\(size) tokens"
  }

  /// `[42 tokens]`, shown with each message.
  static func tokens(_ number: Int) -> String {
    "[\(count(number, "token"))]"
  }

  /// `1 message`, `14 messages`.
  static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// The line after a reply: `prompt [12 tokens] · reply [42 tokens] · Context Window: 512/4096 tokens`.
  static func afterReply(promptTokens: Int?, replyTokens: Int?, used: Int?, size: Int) -> String {
    var parts: [String] = []
    if let promptTokens { parts.append("prompt \(tokens(promptTokens))") }
    if let replyTokens { parts.append("reply \(tokens(replyTokens))") }
    if let used { parts.append(contextWindow(used: used, size: size)) }
    return parts.joined(separator: " · ")
  }

  /// The `--verbose` statistics of a reply, with the context used.
  static func statistics(_ response: LanguageModelSession.Response<String>, used: Int?, size: Int) -> String {
    UsageLine.describe(response) + (used.map { " · context \($0)/\(size) tokens" } ?? "")
  }
}
