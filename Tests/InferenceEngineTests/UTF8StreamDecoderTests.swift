import InferenceEngine
import Testing

@Suite struct UTF8StreamDecoderTests {
  @Test(arguments: ["héllo wörld", "日本語のテキスト", "emoji 🦙🚀 mixed", "a\u{0301}", "plain"])
  func decodesAnySplitOfTheBytes(text: String) {
    let bytes = Array(text.utf8)
    for split in 0...bytes.count {
      var decoder = UTF8StreamDecoder()
      let first = decoder.decode(bytes[..<split])
      let second = decoder.decode(bytes[split...])
      #expect(first + second + decoder.finish() == text)
      // Never half a code point: every emitted chunk is valid on its own.
      #expect(first.unicodeScalars.allSatisfy { $0 != "\u{FFFD}" })
    }
  }

  @Test func holdsBackAnIncompleteSequence() {
    var decoder = UTF8StreamDecoder()
    let llama = Array("🦙".utf8)
    #expect(decoder.decode(llama.prefix(2)) == "")
    #expect(decoder.decode(llama.suffix(2)) == "🦙")
  }

  @Test func finishFlushesInvalidBytesAsReplacement() {
    var decoder = UTF8StreamDecoder()
    #expect(decoder.decode([0xF0, 0x9F]) == "")
    #expect(decoder.finish() == "\u{FFFD}")
  }
}
