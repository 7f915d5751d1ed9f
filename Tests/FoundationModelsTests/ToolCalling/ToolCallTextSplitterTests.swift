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

  /// A streamed call is announced once its name is whole, before its arguments are.
  @Test func aCallIsAnnouncedOnceItsNameIsWhole() throws {
    let pieces = try split([
      "<tool_call>\n{\"name\": \"ge", "tWeather\", \"argu", "ments\": {\"a\":", "1}}\n</tool_call>",
    ])
    #expect(pieces == [.opened(name: "getWeather"), .call(name: "getWeather", arguments: #"{"a":1}"#)])
    // Each call of several, and none twice.
    let call = "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>"
    let two = try split(Array(call + "\n" + call).map { String($0) })
    #expect(
      two == [
        .opened(name: "f"), .call(name: "f", arguments: "{}"), .opened(name: "f"), .call(name: "f", arguments: "{}"),
      ])
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

  /// A splitter that lets the output open its call in the model's own form, with tools `f`
  /// and `getWeather`.
  func ownForm() -> ToolCallTextSplitter {
    ToolCallTextSplitter(opening: CallOpening(toolNames: ["f", "getWeather"]))
  }

  /// `<tools>`, a fenced or a bare JSON object opens a call at the start of the output only,
  /// once the name is a tool's, and only where it may.
  @Test func theModelsOwnOpeningsOpenACallAtTheStartOnly() throws {
    var tagged = ownForm()
    #expect(tagged.feed("<to") == [])
    #expect(tagged.feed("ols>\n{\"name\": \"f") == [])
    #expect(tagged.feed("\", \"arguments\": {}") == [])
    #expect(tagged.feed("}\n</tools>") == [.call(name: "f", arguments: "{}")])
    #expect(try tagged.finish().isEmpty)
    var fenced = ownForm()
    #expect(fenced.feed("```json\n{\n  \"name\": \"getWeather\"") == [])
    #expect(
      fenced.feed(", \"arguments\": {\"city\":\"Paris\"}}\n```")
        == [.call(name: "getWeather", arguments: #"{"city":"Paris"}"#)])
    #expect(try fenced.finish().isEmpty)
    var bare = ownForm()
    #expect(bare.feed("{\"name\":\"f\", \"arguments\": {}}") == [.call(name: "f", arguments: "{}")])
    #expect(try bare.finish().isEmpty)

    var later = ownForm()
    #expect(later.feed("Use <tools> here.") == [.text("Use <tools> here.")])
    var notAllowed = ToolCallTextSplitter()
    #expect(notAllowed.feed("<tools>\n{\"name\": \"f\"") == [.text("<tools>\n{\"name\": \"f\"")])
    var short = ownForm()
    #expect(short.feed("<to") == [])
    #expect(try short.finish() == [.text("<to")])
    var empty = ownForm()
    #expect(empty.feed("<tools>") == [])
    #expect(empty.feed("</tools>") == [.text("<tools></tools>")])
  }

  /// After a call in the model's own form the next one follows in that form: after `<tools>`
  /// on the next line, in a fence in the same or a new one. The object ends at its closing
  /// brace, braces and quotes inside strings aside; the fences and tags around are no text.
  @Test(arguments: [
    "<tools>\n{\"name\": \"f\", \"arguments\": {}}\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"{P\\\"}\"}}\n</tools>",
    "```json\n{\"name\": \"f\", \"arguments\": {}}\n```\n\n```json\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"{P\\\"}\"}}\n```",
    "```\n{\"name\": \"f\", \"arguments\": {}}\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"{P\\\"}\"}}\n```\n",
  ])
  func callsInTheModelsOwnFormFollowOneAnother(output: String) throws {
    let expected: [Piece] = [
      .call(name: "f", arguments: "{}"), .call(name: "getWeather", arguments: #"{"city":"{P\"}"}"#),
    ]
    var whole = ownForm()
    #expect(try whole.feed(output) + whole.finish() == expected)
    var byByte = ownForm()
    let pieces = try output.map { byByte.feed(String($0)) }.joined() + byByte.finish()
    #expect(Array(pieces) == expected)
    var cut = ownForm()
    let inside = try #require(output.range(of: "{\"city")).upperBound
    _ = cut.feed(String(output[..<inside]))
    #expect(throws: ToolCallSplitError.self) { try cut.finish() }
  }

  /// Where a call may open on any line (a turn's first round), a sentence and then the call in
  /// a fence is text and a call; only the line that may open a call is held back, and a line
  /// that opens none is text once it is known not to.
  @Test func aCallMayOpenOnAnyLine() throws {
    let output = "To convert, use `f` with:\n```json\n{\"name\": \"f\", \"arguments\": {}}\n```"
    let expected: [Piece] = [.text("To convert, use `f` with:\n"), .call(name: "f", arguments: "{}")]
    var whole = ToolCallTextSplitter(opening: CallOpening(toolNames: ["f"], everyLine: true))
    #expect(try whole.feed(output) + whole.finish() == expected)
    var streamed = ToolCallTextSplitter(opening: CallOpening(toolNames: ["f"], everyLine: true))
    #expect(streamed.feed("To convert,") == [.text("To convert,")])
    #expect(streamed.feed(" use `f` with:\n```js") == [.text(" use `f` with:\n")])
    #expect(streamed.feed("on\n{\"name\": \"g\"}\nNo.") == [.text("```json\n{\"name\": \"g\"}\nNo.")])
    #expect(
      streamed.feed("\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>") == [
        .text("\n"), .call(name: "f", arguments: "{}"),
      ])
    #expect(try streamed.finish().isEmpty)
  }

  /// An answer that starts like a call but names no tool is text: a JSON example the user
  /// asked for, a fence of another language.
  @Test func anObjectThatNamesNoToolIsText() throws {
    var person = ownForm()
    #expect(person.feed("```json\n{\"name\": \"get") == [])
    #expect(person.feed("ter\", \"age\": 3}\n```") == [.text("```json\n{\"name\": \"getter\", \"age\": 3}\n```")])
    var swift = ownForm()
    #expect(swift.feed("```swift\nlet x = 1\n```") == [.text("```swift\nlet x = 1\n```")])
    var otherKey = ownForm()
    #expect(otherKey.feed("{\"city\": \"f\"}") == [.text("{\"city\": \"f\"}")])
  }

  /// The opening's grammar, byte by byte: undecided until a tool's whole name, then open with
  /// what the bytes wrote past it.
  @Test func theOpeningIsDecidedAtTheNamesClosingQuote() {
    var opening = CallOpening(toolNames: ["getWeather", "getTime"])
    #expect(opening.feed(Array("```\n{ \"name\" :\n \"get".utf8)) == .undecided)
    #expect(opening.fewestBytesToOpen == 5)
    #expect(opening.feed(Array("Time\",\n".utf8)) == .opened(tool: 1, overshoot: Array(",\n".utf8)))
    var tag = CallOpening(toolNames: ["f"])
    #expect(tag.fewestBytesToOpen == "{\"name\":\"f\"".utf8.count)
    #expect(tag.feed(Array("```jsx".utf8)) == .text)
  }

  @Test func anOutputThatEndsInsideACallIsAnError() {
    var splitter = ToolCallTextSplitter()
    _ = splitter.feed("<tool_call>\n{\"name\": \"f\", \"argu")
    #expect(throws: ToolCallSplitError.self) { try splitter.finish() }
  }
}
