import Testing

@testable import FMCommandLine

@Suite struct MultilineBlockTests {
  private func feed(_ lines: [String]) -> [MultilineBlock.Outcome] {
    var block = MultilineBlock()
    return lines.map { block.feed($0) }
  }

  @Test func plainLinesAreComplete() {
    #expect(feed(["hello"]) == [.complete("hello")])
  }

  @Test func blockCollectsLinesUntilTheClosingQuotes() {
    #expect(feed(["\"\"\"", "one", "two", "\"\"\""]) == [.needsMore, .needsMore, .needsMore, .complete("one\ntwo")])
    #expect(feed(["\"\"\"one", "two\"\"\""]) == [.needsMore, .complete("one\ntwo")])
  }

  @Test func blockOnOneLine() {
    #expect(feed(["\"\"\"inline\"\"\""]) == [.complete("inline")])
  }

  @Test func cancelDropsTheBlock() {
    var block = MultilineBlock()
    _ = block.feed("\"\"\"")
    #expect(block.isOpen)
    block.cancel()
    #expect(!block.isOpen)
    #expect(block.feed("next") == .complete("next"))
  }
}
