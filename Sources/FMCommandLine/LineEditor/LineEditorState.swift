import Foundation

/// The line being edited: text, cursor and history position.
///
/// A pure state machine.
///
/// Each `KeyEvent` goes through `handle(_:)`, which edits the state and returns the
/// `LineEditorAction` the terminal shell must perform. Nothing here touches a terminal, so every
/// key binding is unit-tested.
struct LineEditorState: Sendable {
  /// The text, as characters so the cursor moves by what the user sees as one character.
  private(set) var buffer: [Character] = []
  /// Where the cursor is: an index into `buffer` (`buffer.count` is the end).
  private(set) var cursor = 0
  /// Earlier lines, oldest first; Up and Down walk through them.
  private(set) var history: [String]
  /// Which history entry is shown, or nil while editing the new line.
  private var historyIndex: Int?
  /// The new line as it was before Up, given back when Down walks past the newest entry.
  private var draft: [Character] = []

  /// Starts an empty line.
  /// - Parameter history: earlier lines, oldest first.
  init(history: [String] = []) {
    self.history = history
  }

  /// The text of the line.
  var text: String { String(buffer) }

  /// Replaces the line with `text`, the cursor at its end.
  mutating func setText(_ text: String) {
    buffer = Array(text)
    cursor = buffer.count
  }

  /// Starts a new line; `submitted` (if not empty, and not the same as the last) joins the history.
  mutating func reset(recording submitted: String? = nil) {
    if let submitted, !submitted.trimmingCharacters(in: .whitespaces).isEmpty, history.last != submitted {
      history.append(submitted)
    }
    buffer = []
    cursor = 0
    historyIndex = nil
    draft = []
  }

  /// Applies one key.
  mutating func handle(_ key: KeyEvent) -> LineEditorAction {
    switch key {
    case .text(let text):
      let characters = Array(text)
      buffer.insert(contentsOf: characters, at: cursor)
      cursor += characters.count
      return .redraw
    case .enter:
      return .submit(text)
    case .backspace:
      guard cursor > 0 else { return .none }
      cursor -= 1
      buffer.remove(at: cursor)
      return .redraw
    case .delete:
      guard cursor < buffer.count else { return .none }
      buffer.remove(at: cursor)
      return .redraw
    case .left:
      return move(to: cursor - 1)
    case .right:
      return move(to: cursor + 1)
    case .wordLeft:
      return move(to: startOfWord(before: cursor))
    case .wordRight:
      return move(to: endOfWord(after: cursor))
    case .home:
      return move(to: 0)
    case .end:
      return move(to: buffer.count)
    case .up:
      return recall(offset: -1)
    case .down:
      return recall(offset: 1)
    case .killToEnd:
      guard cursor < buffer.count else { return .none }
      buffer.removeSubrange(cursor...)
      return .redraw
    case .killToStart:
      guard cursor > 0 else { return .none }
      buffer.removeSubrange(..<cursor)
      cursor = 0
      return .redraw
    case .killWordBackward:
      let start = startOfWord(before: cursor)
      guard start < cursor else { return .none }
      buffer.removeSubrange(start..<cursor)
      cursor = start
      return .redraw
    case .clearScreen:
      return .clearScreen
    case .interrupt:
      return buffer.isEmpty ? .interruptHint : .cancelLine
    case .endOfInput:
      // Ctrl+D deletes forward on a non-empty line, as in readline; on an empty one it is EOF.
      guard !buffer.isEmpty else { return .endOfInput }
      return handle(.delete)
    case .pasteStart, .pasteEnd, .ignored:
      return .none
    }
  }

  private mutating func move(to position: Int) -> LineEditorAction {
    let clamped = min(max(position, 0), buffer.count)
    guard clamped != cursor else { return .none }
    cursor = clamped
    return .redraw
  }

  /// Walks the history; the first step up keeps the line being typed as the draft.
  private mutating func recall(offset: Int) -> LineEditorAction {
    let current = historyIndex ?? history.count
    let target = current + offset
    guard target >= 0, target <= history.count, target != current else { return .none }
    if historyIndex == nil { draft = buffer }
    if target == history.count {
      historyIndex = nil
      buffer = draft
    } else {
      historyIndex = target
      buffer = Array(history[target])
    }
    cursor = buffer.count
    return .redraw
  }

  /// Where the word before `position` starts: skip spaces back, then non-spaces.
  private func startOfWord(before position: Int) -> Int {
    var index = position
    while index > 0, buffer[index - 1].isWhitespace { index -= 1 }
    while index > 0, !buffer[index - 1].isWhitespace { index -= 1 }
    return index
  }

  /// Where the word after `position` ends: skip spaces forward, then non-spaces.
  private func endOfWord(after position: Int) -> Int {
    var index = position
    while index < buffer.count, buffer[index].isWhitespace { index += 1 }
    while index < buffer.count, !buffer[index].isWhitespace { index += 1 }
    return index
  }
}
