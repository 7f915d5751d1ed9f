import Testing

@testable import FMCommandLine

@Suite struct LineEditorStateTests {
  /// Applies keys and returns the state and the last action.
  private func edit(_ keys: [KeyEvent], history: [String] = []) -> (LineEditorState, LineEditorAction) {
    var state = LineEditorState(history: history)
    var last = LineEditorAction.none
    for key in keys { last = state.handle(key) }
    return (state, last)
  }

  @Test func typingAndEnterSubmits() {
    let (state, action) = edit([.text("hello"), .text(" world"), .enter])
    #expect(action == .submit("hello world"))
    #expect(state.cursor == 11)
  }

  @Test func cursorMovesAndInsertsInTheMiddle() {
    let (state, _) = edit([.text("helo"), .left, .text("l"), .home, .text(">"), .end, .text("!")])
    #expect(state.text == ">hello!")
    #expect(state.cursor == 7)
  }

  @Test func movesStopAtTheEnds() {
    #expect(edit([.left]).1 == .none)
    #expect(edit([.text("a"), .right]).1 == .none)
  }

  @Test func backspaceAndDelete() {
    let (state, _) = edit([.text("abcd"), .backspace, .home, .delete])
    #expect(state.text == "bc")
    #expect(state.cursor == 0)
  }

  @Test func killToEndAndToStart() {
    let (toEnd, _) = edit([.text("hello world"), .wordLeft, .killToEnd])
    #expect(toEnd.text == "hello ")
    let (toStart, _) = edit([.text("hello world"), .wordLeft, .killToStart])
    #expect(toStart.text == "world")
    #expect(toStart.cursor == 0)
  }

  @Test func killWordBackwardSkipsSpacesFirst() {
    let (state, _) = edit([.text("one two  "), .killWordBackward])
    #expect(state.text == "one ")
  }

  @Test func wordMoves() {
    let (state, _) = edit([.text("one two three"), .wordLeft, .wordLeft])
    #expect(state.cursor == 4)
    let (forward, _) = edit([.text("one two three"), .home, .wordRight])
    #expect(forward.cursor == 3)
  }

  @Test func historyWalksAndKeepsTheDraft() {
    var state = LineEditorState(history: ["first", "second"])
    _ = state.handle(.text("draft"))
    _ = state.handle(.up)
    #expect(state.text == "second")
    _ = state.handle(.up)
    #expect(state.text == "first")
    #expect(state.handle(.up) == .none)
    _ = state.handle(.down)
    _ = state.handle(.down)
    #expect(state.text == "draft")
    #expect(state.handle(.down) == .none)
  }

  @Test func submittedLinesJoinTheHistoryOnce() {
    var state = LineEditorState()
    state.reset(recording: "a")
    state.reset(recording: "a")
    state.reset(recording: "  ")
    state.reset(recording: "b")
    #expect(state.history == ["a", "b"])
  }

  @Test func ctrlCDropsALineOrHintsOnAnEmptyOne() {
    #expect(edit([.interrupt]).1 == .interruptHint)
    #expect(edit([.text("x"), .interrupt]).1 == .cancelLine)
  }

  @Test func ctrlDExitsOnlyOnAnEmptyLine() {
    #expect(edit([.endOfInput]).1 == .endOfInput)
    let (state, action) = edit([.text("ab"), .home, .endOfInput])
    #expect(action == .redraw)
    #expect(state.text == "b")
  }

  @Test func ctrlLClearsTheScreen() {
    #expect(edit([.text("x"), .clearScreen]).1 == .clearScreen)
  }

  @Test func pasteKeepsNewlinesInTheLine() {
    let (_, action) = edit([.pasteStart, .text("line one\nline two"), .pasteEnd, .enter])
    #expect(action == .submit("line one\nline two"))
  }
}
