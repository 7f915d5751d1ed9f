/// What the terminal shell must do after the editor handled a key.
enum LineEditorAction: Equatable, Sendable {
  /// Nothing visible changed.
  case none
  /// The buffer or cursor changed: draw the line again.
  case redraw
  /// Clear the screen, then draw the line again.
  case clearScreen
  /// The user pressed Enter: this is the line (it may hold pasted newlines).
  case submit(String)
  /// Ctrl+C on a line with text: the line is dropped; start a fresh one.
  case cancelLine
  /// Ctrl+C on an empty line: show how to leave.
  case interruptHint
  /// Ctrl+D on an empty line: the user wants to leave.
  case endOfInput
}
