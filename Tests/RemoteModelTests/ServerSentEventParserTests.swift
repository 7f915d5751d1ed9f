import Foundation
import Testing

@testable import RemoteModel

@Suite struct ServerSentEventParserTests {
  @Test func eventsAreFoundWhateverTheChunksAndLineEndings() {
    let stream = "data: {\"a\":1}\r\n\r\n: comment\n\ndata: first\ndata: second\n\nevent: x\ndata: [DONE]\n\n"
    let expected = [#"{"a":1}"#, "first\nsecond", "[DONE]"]
    for size in [1, 2, 3, 7, stream.utf8.count] {
      var parser = ServerSentEventParser()
      var events: [String] = []
      let bytes = Array(stream.utf8)
      for start in stride(from: 0, to: bytes.count, by: size) {
        events += parser.feed(bytes[start..<min(start + size, bytes.count)])
      }
      events += parser.finish()
      #expect(events == expected, "chunks of \(size)")
    }
  }

  @Test func aStreamThatEndsWithoutABlankLineKeepsItsLastEvent() {
    var parser = ServerSentEventParser()
    #expect(parser.feed(Array("data: last".utf8)).isEmpty)
    #expect(parser.finish() == ["last"])
  }
}
