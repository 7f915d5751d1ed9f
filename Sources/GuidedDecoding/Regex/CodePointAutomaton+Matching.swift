/// Whether a whole string (a member name) matches a pattern.
extension CodePointAutomaton {
  /// Whether `text` matches the pattern (JSON Schema's search semantics, as compiled).
  func matches(_ text: String) -> Bool {
    var state = start
    for scalar in text.unicodeScalars {
      guard let next = next(state, scalar.value) else { return false }
      state = next
    }
    return accepting[Int(state)]
  }
}
