import InferenceEngine

/// A required tool call that the response's token budget cannot hold: the call's opening, all
/// of it forced (the marker, and the name and the arguments' start where only one tool can
/// follow), leaves no token to choose with — and once one is chosen, generation closes the
/// call the shortest way, however little budget is left. Thrown before generation (as the
/// `underlyingError` of a `GeneratedContent.ParsingError`, which a session reports as
/// `GenerationError.decodingFailure`), because such a call could only end cut open.
package struct RequiredCallBudgetError: Error, CustomStringConvertible {
  /// The response's token budget.
  package let maximumTokens: Int
  /// The fewest tokens that hold a whole call.
  package let neededTokens: Int

  package var description: String {
    "maximumResponseTokens (\(maximumTokens)) cannot hold a required tool call, which needs at least \(neededTokens) tokens"
  }

  /// Throws when a turn that must call a tool cannot finish a call within `maximumTokens`.
  /// - Parameter calls: a new constraint of the turn's calls, used up by the check.
  static func check(_ calls: ToolCallConstraint, maximumTokens: Int) throws {
    var forced = 0
    // The whole forced opening, to say how many tokens it needs (bounded, for a forced run
    // that would not end).
    while !calls.isComplete, forced <= maximumTokens + 4096 {
      let run = calls.forcedTokens()
      guard !run.isEmpty, (try? run.forEach(calls.accept)) != nil else { break }
      forced += run.count
    }
    let needed = calls.isComplete ? forced : forced + 1
    guard needed > maximumTokens else { return }
    let error = RequiredCallBudgetError(maximumTokens: maximumTokens, neededTokens: needed)
    throw GeneratedContent.ParsingError(rawContent: "", underlyingError: error, debugDescription: error.description)
  }
}
