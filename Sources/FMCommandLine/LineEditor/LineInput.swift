/// What reading one line from the user gave.
enum LineInput: Equatable, Sendable {
  /// A submitted line (it may hold newlines from a paste).
  case line(String)
  /// Ctrl+C: `lineWasEmpty` tells a dropped line from a press on an empty one.
  case interrupt(lineWasEmpty: Bool)
  /// Ctrl+D on an empty line, or the input closed.
  case endOfInput
}
