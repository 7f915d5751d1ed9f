import Testing

@testable import FMCommandLine

@Suite struct LineRendererTests {
  @Test func drawsThePromptAndTextAndPlacesTheCursor() {
    var renderer = LineRenderer(prompt: ">>> ")
    let drawn = renderer.render(text: Array("hello"), cursor: 2, width: 80)
    #expect(drawn == "\r\u{1B}[J>>> hello\r\u{1B}[6C")
    #expect(renderer.cursorRow == 0)
  }

  @Test func wrapsAtTheWidthAndReturnsToTheFirstRowNextTime() {
    var renderer = LineRenderer(prompt: "> ")
    let drawn = renderer.render(text: Array("abcdefgh"), cursor: 8, width: 5)
    // "> abc" fills row 0, "defgh" row 1, the cursor wraps to row 2.
    #expect(drawn == "\r\u{1B}[J> abc \rdefgh \r\r")
    #expect(renderer.cursorRow == 2)
    let again = renderer.render(text: Array("ab"), cursor: 1, width: 5)
    #expect(again.hasPrefix("\r\u{1B}[2A\u{1B}[J> ab"))
    #expect(again.hasSuffix("\r\u{1B}[3C"))
  }

  @Test func pastedNewlinesContinueOnANewRow() {
    var renderer = LineRenderer(prompt: ">>> ")
    let drawn = renderer.render(text: Array("a\nb"), cursor: 0, width: 80)
    #expect(drawn == "\r\u{1B}[J>>> a\r\n... b\u{1B}[1A\r\u{1B}[4C")
    #expect(renderer.cursorRow == 0)
  }

  @Test func promptWidthIgnoresColourCodes() {
    var renderer = LineRenderer(prompt: "\u{1B}[1m>>> \u{1B}[0m", promptWidth: 4)
    #expect(renderer.render(text: [], cursor: 0, width: 80).hasSuffix("\r\u{1B}[4C"))
  }
}
