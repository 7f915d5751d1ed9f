/// Draws the edited line on a terminal: the escape sequences that replace what was drawn last.
///
/// Pure: given the prompt, the text, the cursor and the terminal width, it returns the bytes to
/// write and remembers on which row of the drawing the cursor was left, which the next redraw
/// needs to get back to the start. Lines wrap at the terminal width; newlines in the text (from
/// a paste) continue on a new row after `continuationPrompt`. Each character counts as one
/// column (wide CJK characters and emoji will misplace the cursor slightly).
struct LineRenderer: Sendable {
  /// Shown before the first row.
  var prompt: String
  /// How many columns `prompt` takes (it may hold colour escapes that take none).
  var promptWidth: Int
  /// Shown before each row that follows a newline in the text.
  var continuationPrompt = "... "
  /// The cursor's row within the last drawing, counted from its first row.
  private(set) var cursorRow = 0

  init(prompt: String, promptWidth: Int? = nil) {
    self.prompt = prompt
    self.promptWidth = promptWidth ?? prompt.count
  }

  /// The bytes that redraw the line in place of the previous drawing.
  mutating func render(text: [Character], cursor: Int, width: Int) -> String {
    let width = max(width, 2)
    var output = "\r"
    if cursorRow > 0 { output += "\u{1B}[\(cursorRow)A" }
    output += "\u{1B}[J" + prompt
    var row = promptWidth / width
    var column = promptWidth % width
    var cursorPosition = (row: row, column: column)
    for (index, character) in text.enumerated() {
      if index == cursor { cursorPosition = (row, column) }
      if character == "\n" {
        output += "\r\n" + continuationPrompt
        row += 1
        column = continuationPrompt.count
      } else {
        output.append(character)
        column += 1
        if column == width {
          // Terminals defer the wrap at the last column; a space and CR force it, so the
          // cursor position is known.
          output += " \r"
          row += 1
          column = 0
        }
      }
    }
    if cursor >= text.count { cursorPosition = (row, column) }
    if row > cursorPosition.row { output += "\u{1B}[\(row - cursorPosition.row)A" }
    output += "\r"
    if cursorPosition.column > 0 { output += "\u{1B}[\(cursorPosition.column)C" }
    cursorRow = cursorPosition.row
    return output
  }

  /// The bytes that move below the drawing, leaving it on screen (after Enter).
  mutating func finish(text: [Character], width: Int) -> String {
    let drawn = render(text: text, cursor: text.count, width: width)
    cursorRow = 0
    return drawn + "\r\n"
  }

  /// Forgets the previous drawing (after the screen was cleared or other output was written).
  mutating func forget() {
    cursorRow = 0
  }
}
