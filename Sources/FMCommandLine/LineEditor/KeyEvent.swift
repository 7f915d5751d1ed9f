/// One key press (or pasted piece of text) as the line editor understands it.
///
/// `KeyDecoder` turns terminal bytes into these; `LineEditorState` turns these into edits, so
/// the editor's behaviour is tested with key events and no terminal.
enum KeyEvent: Equatable, Sendable {
  /// Printable text typed (or, between `pasteStart` and `pasteEnd`, pasted).
  case text(String)
  /// Enter (carriage return or line feed).
  case enter
  /// Backspace (DEL or Ctrl+H): delete the character before the cursor.
  case backspace
  /// Delete: delete the character under the cursor.
  case delete
  case left
  case right
  /// Alt+B or Ctrl+Left: one word left.
  case wordLeft
  /// Alt+F or Ctrl+Right: one word right.
  case wordRight
  /// Up arrow or Ctrl+P: the previous history entry.
  case up
  /// Down arrow or Ctrl+N: the next history entry.
  case down
  /// Home or Ctrl+A.
  case home
  /// End or Ctrl+E.
  case end
  /// Ctrl+K: delete from the cursor to the end of the line.
  case killToEnd
  /// Ctrl+U: delete from the start of the line to the cursor.
  case killToStart
  /// Ctrl+W: delete the word before the cursor.
  case killWordBackward
  /// Ctrl+L: clear the screen and redraw the line.
  case clearScreen
  /// Ctrl+C.
  case interrupt
  /// Ctrl+D.
  case endOfInput
  /// The terminal starts a bracketed paste (`ESC [ 200 ~`).
  case pasteStart
  /// The terminal ends a bracketed paste (`ESC [ 201 ~`).
  case pasteEnd
  /// Anything else (Tab, function keys, unknown escape sequences): ignored.
  case ignored
}
