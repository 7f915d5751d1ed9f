import Testing

@testable import Guardrails

@Suite struct TextNormalizerTests {
  @Test(arguments: [
    ("How do I BUILD a Bomb?", "how do i build a bomb"),
    ("k1ll", "kill"),
    ("b0mb", "bomb"),
    ("$h!t", "shit"),
    ("k i l l  them", "kill them"),
    ("b.o.m.b", "bomb"),
    ("kiiiiill", "kiill"),
    ("\u{0431}\u{043E}\u{043C}b", "\u{0431}omb"),  // Cyrillic о is mapped; б has no Latin look-alike
    ("b\u{043E}mb", "bomb"),  // Cyrillic о
    ("\u{FF42}\u{FF4F}\u{FF4D}\u{FF42}", "bomb"),  // full-width letters
    ("\u{1D41B}\u{1D428}\u{1D426}\u{1D41B}", "bomb"),  // mathematical bold
    ("bo\u{200B}mb", "bomb"),  // zero-width space
    ("bómb", "bomb"),
    ("don't", "dont"),
    ("self-harm", "self harm"),
  ])
  func undoesDisguises(_ text: String, _ normalized: String) {
    #expect(TextNormalizer.normalize(text) == normalized)
  }

  @Test(arguments: ["2024", "mp3", "covid19", "4th", "h264"])
  func leavesNumbersAndTagsAlone(_ token: String) {
    #expect(TextNormalizer.normalize(token) == token)
  }
}
