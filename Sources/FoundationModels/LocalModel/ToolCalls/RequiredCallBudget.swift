/// A required tool call that the response's token budget cannot hold: even the shortest call
/// the tools' schemas allow takes more tokens than `maximumResponseTokens`. Thrown before
/// generation (as the `underlyingError` of a `GeneratedContent.ParsingError`, which a session
/// reports as `GenerationError.decodingFailure`), because such a call could only end cut open.
package struct RequiredCallBudgetError: Error, CustomStringConvertible {
  /// The response's token budget.
  package let maximumTokens: Int
  /// The tokens of the shortest call.
  package let shortestCall: Int

  package var description: String {
    "maximumResponseTokens (\(maximumTokens)) cannot hold the shortest call of a required tool, which takes \(shortestCall) tokens"
  }

  /// Throws when a turn that must call a tool cannot finish the shortest call within `maximumTokens`.
  static func check(_ calls: ToolCallConstraint, mode: ToolCallConstraint.Mode, maximumTokens: Int?) throws {
    guard mode == .required, let maximumTokens else { return }
    let shortest = calls.tokensToClose().count
    guard shortest > maximumTokens else { return }
    let error = RequiredCallBudgetError(maximumTokens: maximumTokens, shortestCall: shortest)
    throw GeneratedContent.ParsingError(rawContent: "", underlyingError: error, debugDescription: error.description)
  }
}
