import Testing

@testable import FMCommandLine

@Suite struct KeyDecoderTests {
  private func decode(_ chunks: [[UInt8]]) -> [KeyEvent] {
    var decoder = KeyDecoder()
    return chunks.flatMap { decoder.decode($0) }
  }

  private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test(arguments: [
    ("\u{1B}[A", KeyEvent.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
    ("\u{1B}OA", .up), ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
    ("\u{1B}[3~", .delete), ("\u{1B}[1;5C", .wordRight), ("\u{1B}[1;5D", .wordLeft), ("\u{1B}b", .wordLeft),
    ("\u{1B}f", .wordRight), ("\u{1}", .home), ("\u{5}", .end), ("\u{B}", .killToEnd), ("\u{15}", .killToStart),
    ("\u{17}", .killWordBackward), ("\u{C}", .clearScreen), ("\u{3}", .interrupt), ("\u{4}", .endOfInput),
    ("\u{7F}", .backspace), ("\u{8}", .backspace), ("\r", .enter), ("\u{10}", .up), ("\u{E}", .down),
    ("\t", .ignored), ("\u{1B}[15~", .ignored),
  ])
  func keys(sequence: String, key: KeyEvent) {
    #expect(decode([bytes(sequence)]) == [key])
  }

  @Test func typedTextIsMergedAndUTF8Decoded() {
    #expect(decode([bytes("héllo ✓")]) == [.text("héllo ✓")])
  }

  @Test func sequencesSplitAcrossReadsAreJoined() {
    let check = Array("✓".utf8)
    #expect(decode([[0x1B], bytes("[A")]) == [.up])
    #expect(decode([[0x1B, UInt8(ascii: "[")], bytes("1;5"), bytes("C")]) == [.wordRight])
    #expect(decode([Array(check.prefix(1)), Array(check.dropFirst())]) == [.text("✓")])
  }

  @Test func pastedNewlinesAreTextNotEnter() {
    let events = decode([bytes("\u{1B}[200~one\rtwo\nthree\u{1B}[201~\r")])
    #expect(events == [.pasteStart, .text("one\ntwo\nthree"), .pasteEnd, .enter])
  }

  @Test func pasteMarkersSplitAcrossReads() {
    let events = decode([bytes("\u{1B}[20"), bytes("0~a\rb\u{1B}[2"), bytes("01~")])
    #expect(events == [.pasteStart, .text("a\nb"), .pasteEnd])
  }
}
