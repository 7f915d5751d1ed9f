import Testing

@testable import FoundationModels

@Suite struct ToolCallTextSplitterTests {
  typealias Piece = ToolCallTextSplitter.Piece

  func split(_ chunks: [String]) throws -> [Piece] {
    var splitter = ToolCallTextSplitter()
    return try chunks.flatMap { splitter.feed($0) } + splitter.finish()
  }

  @Test func textBeforeACallIsTheAnswerAndTheCallIsParsed() throws {
    let pieces = try split(["Let me look.\n<tool_", "call>\n{\"name\": \"f\", \"arguments\": {\"a\":1}}\n</tool_call>"])
    #expect(pieces == [.text("Let me look.\n"), .call(name: "f", arguments: #"{"a":1}"#)])
  }

  @Test func aPossibleMarkerIsHeldBackUntilItIsNotOne() throws {
    var splitter = ToolCallTextSplitter()
    #expect(splitter.feed("a <tool") == [.text("a ")])
    #expect(splitter.feed("box>") == [.text("<toolbox>")])
    #expect(try splitter.finish().isEmpty)
  }

  @Test func lineBreaksBetweenCallsAreDropped() throws {
    let call = "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>"
    let pieces = try split([call + "\n" + call])
    #expect(pieces == [.call(name: "f", arguments: "{}"), .call(name: "f", arguments: "{}")])
  }

  /// `<tools>` opens a call at the start of the output only, and only where it may.
  @Test func theOpeningAliasOpensACallAtTheStartOnly() throws {
    var opening = ToolCallTextSplitter(aliasOpensCalls: true)
    #expect(opening.feed("<to") == [])
    #expect(
      opening.feed("ols>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>") == [.call(name: "f", arguments: "{}")])
    #expect(try opening.finish().isEmpty)
    var later = ToolCallTextSplitter(aliasOpensCalls: true)
    #expect(later.feed("Use <tools> here.") == [.text("Use <tools> here.")])
    var notAllowed = ToolCallTextSplitter()
    #expect(notAllowed.feed("<tools>x") == [.text("<tools>x")])
    var short = ToolCallTextSplitter(aliasOpensCalls: true)
    #expect(short.feed("<to") == [])
    #expect(try short.finish() == [.text("<to")])
    // An empty block is no call: only the call's fixed text after the alias opens one.
    var empty = ToolCallTextSplitter(aliasOpensCalls: true)
    #expect(empty.feed("<tools>") == [])
    #expect(empty.feed("</tools>") == [.text("<tools></tools>")])
    var bare = ToolCallTextSplitter(aliasOpensCalls: true)
    #expect(bare.feed("<tools>") == [])
    #expect(try bare.finish() == [.text("<tools>")])
  }

  @Test func anOutputThatEndsInsideACallIsAnError() {
    var splitter = ToolCallTextSplitter()
    _ = splitter.feed("<tool_call>\n{\"name\": \"f\", \"argu")
    #expect(throws: ToolCallSplitError.self) { try splitter.finish() }
  }
}
