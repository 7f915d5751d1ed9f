import GuidedDecoding
import InferenceEngine

/// Tokens that close a call's arguments and write on into the call's fixed end in one go:
/// `}}` (the arguments' closing brace and the call object's, in the model's own form) or `}\n`
/// (before `</tool_call>`). The model writes a call as one piece of text, and where its
/// arguments can close such a token is how it closes them; banned as no JSON of the arguments
/// alone, it left a number's digits as the model's next choice (`"minutes": 120` became 1200).
/// `ToolCallConstraint` lets them through wherever the arguments may close.
struct ArgumentsClosing {
  /// The closing brace's token.
  private let brace: Token
  /// Per token that closes the arguments and goes on: what it writes past the brace.
  let overshoots: [Token: [UInt8]]

  /// - Parameter callEnd: the call's fixed text after its arguments, as far as plain text
  ///   tokens write it (`}` in the model's own form, `}\n` before the closing marker).
  init(callEnd: String, model: any TokenModel, vocabulary: Vocabulary) {
    let braceTokens = model.tokenize("}", parseSpecial: false)
    brace = braceTokens.first ?? 0
    guard braceTokens.count == 1 else {
      overshoots = [:]
      return
    }
    let end = Array(callEnd.utf8)
    var found: [Token: [UInt8]] = [:]
    for (id, piece) in vocabulary.tokens.enumerated()
    where piece.count > 1 && piece.first == UInt8(ascii: "}") && end.starts(with: piece.dropFirst()) {
      found[Token(id)] = Array(piece.dropFirst())
    }
    overshoots = found
  }

  /// Whether the arguments under `inner` may close now: a brace would leave nothing but their end.
  func mayClose(_ inner: SchemaConstraint) -> Bool {
    guard !overshoots.isEmpty, let snapshot = inner.snapshot() else { return false }
    defer { inner.restore(snapshot) }
    return (try? inner.accept(brace)) != nil && inner.mustEnd
  }

  /// Closes the arguments under `inner` with the brace `token` begins with.
  /// - Returns: what `token` writes past the brace.
  func close(_ inner: SchemaConstraint, by token: Token) throws -> [UInt8] {
    guard let overshoot = overshoots[token], mayClose(inner) else {
      throw ToolCallConstraintError("token \(token) is not allowed in the call's arguments")
    }
    try inner.accept(brace)
    return overshoot
  }
}
