/// The control tokens of a vocabulary by their text (`<|im_start|>`, `<start_of_turn>`, `<s>`),
/// for finding them in a chat template's own text.
///
/// Only template text is searched: input text (messages, tool outputs, documents) is tokenized
/// as plain text, so a user who types `<|im_start|>` never produces the control token.
public struct ControlTokens: Sendable {
  private var tokens: [[UInt8]: Token] = [:]
  private var textOfToken: [Token: [UInt8]] = [:]
  /// The lengths of the control tokens' texts, longest first: at each position the longest
  /// match wins, as in llama.cpp's tokenizer.
  private var lengths: [Int] = []
  private var firstBytes = Set<UInt8>()

  /// - Parameter texts: each control token's text and id.
  public init(_ texts: [(text: String, token: Token)]) {
    for (text, token) in texts where !text.isEmpty {
      let bytes = Array(text.utf8)
      if tokens[bytes] == nil {
        tokens[bytes] = token
        textOfToken[token] = bytes
      }
      firstBytes.insert(bytes[0])
    }
    lengths = Set(tokens.keys.map(\.count)).sorted(by: >)
  }

  /// The control tokens in `texts`, with their text: what an output must show for its readers
  /// to find them.
  public func shown(_ texts: [String]) -> [Token: [UInt8]] {
    var shown: [Token: [UInt8]] = [:]
    for text in texts {
      for case .control(let token) in split(text) { shown[token] = textOfToken[token] }
    }
    return shown
  }

  /// One stretch of template text: plain text, or a control token found in it.
  public enum Segment: Equatable, Sendable {
    case text(String)
    case control(Token)
  }

  /// Splits template text at the control tokens' texts, longest match first.
  public func split(_ text: String) -> [Segment] {
    guard !tokens.isEmpty else { return [.text(text)] }
    let bytes = Array(text.utf8)
    var segments: [Segment] = []
    var plainStart = 0
    var index = 0
    while index < bytes.count {
      if firstBytes.contains(bytes[index]), let (token, length) = match(bytes, at: index) {
        if plainStart < index { segments.append(.text(String(decoding: bytes[plainStart..<index], as: UTF8.self))) }
        segments.append(.control(token))
        index += length
        plainStart = index
      } else {
        index += 1
      }
    }
    if plainStart < bytes.count { segments.append(.text(String(decoding: bytes[plainStart...], as: UTF8.self))) }
    return segments
  }

  private func match(_ bytes: [UInt8], at index: Int) -> (Token, Int)? {
    for length in lengths where index + length <= bytes.count {
      if let token = tokens[Array(bytes[index..<index + length])] { return (token, length) }
    }
    return nil
  }
}
