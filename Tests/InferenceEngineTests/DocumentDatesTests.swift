import FMTestSupport
import Foundation
import Testing

@testable import InferenceEngine

/// Dates a document writes with their month's name, read with their ISO 8601 form
/// (`DocumentDates`), and the guesses drafted from them where the output writes that form.
@Suite struct DocumentDatesTests {
  /// A text with one date in it, and the date's text and form.
  @Test(arguments: [
    ("Booking date: 2 February 2025\n", "2 February 2025", "2025-02-02"),
    ("Invoice date: June 3, 2024\n", "June 3, 2024", "2024-06-03"),
    ("Date: Friday 14 March 2025\n", "Friday 14 March 2025", "2025-03-14"),
    ("Thursday, 9 October 2025\n", "Thursday, 9 October 2025", "2025-10-09"),
    ("due on the 3rd of Sept. 2024.", "3rd of Sept. 2024", "2024-09-03"),
    ("Posted: Aug 12th, 2024", "Aug 12th, 2024", "2024-08-12"),
    ("born 31 DECEMBER 1999;", "31 DECEMBER 1999", "1999-12-31"),
  ])
  func aDateIsReadWithItsForm(_ text: String, _ date: String, _ iso: String) throws {
    let bytes = Array(text.utf8)
    let found = DocumentDates(text: bytes).dates
    try #require(found.count == 1)
    #expect(String(decoding: bytes[found[0].start..<found[0].end], as: UTF8.self) == date)
    #expect(String(decoding: found[0].iso, as: UTF8.self) == iso)
  }

  @Test(arguments: [
    "Effective 04/08/2025 until 2025-01-17",  // numbers only: day and month are the writer's custom
    "March 2025, Terminal 5",  // no day
    "You may 3 times retry by 2025",  // a word that is a month's name, no date
    "32 March 2025 and 14 Marchers 2025",  // no such day; no month
    "14 March\n2025",  // the year on another line
  ])
  func noDateIsReadWhereNoneIsWritten(_ text: String) {
    #expect(DocumentDates(text: Array(text.utf8)).dates.isEmpty)
  }

  /// Of the document's dates, the next one not written yet that ends after the cursor (or at
  /// it: the output may be writing it) where its form goes on from the value; once the value
  /// holds a year and more, any whose form does, the next one first.
  @Test func theDateGuessedIsTheNextOneAfterTheCursor() {
    let text = "Sent 3 November 2025. Appointment: 25 November 2025, review 25 December 2026."
    let dates = DocumentDates(text: Array(text.utf8))
    let (sent, appointment, review) = (dates.dates[0], dates.dates[1], dates.dates[2])
    func guess(_ value: String, after cursor: Int?, written: [DocumentDates.Date] = []) -> DocumentDates.Date? {
      dates.date(continuing: Array(value.utf8), after: cursor, excluding: Set(written.map(\.iso)))
    }
    #expect(guess("2", after: nil) == sent)
    #expect(guess("2025-1", after: sent.end) == sent, "the date that ends at the cursor")
    #expect(guess("2025-1", after: sent.end, written: [sent]) == appointment)
    #expect(guess("2026", after: sent.end + 1) == nil, "the next date is of 2025: a year's first digits say little")
    #expect(guess("2026-", after: sent.end + 1) == review)
    #expect(guess("2025-11-03", after: nil) == nil, "written whole")
    #expect(guess("", after: nil) == nil)
  }

  @Test func anISODateIsRecognisedAsAString() {
    #expect(DocumentDates.endsWithISODate(Array("{\"a\":\"2025-03-14\"".utf8)))
    #expect(!DocumentDates.endsWithISODate(Array("{\"a\":\"2025-03-14".utf8)))
    #expect(!DocumentDates.endsWithISODate(Array("\"14 March 2025\"".utf8)))
  }

  /// Generates `answer` under two string fields after a form with two dates written with their
  /// month's name, with the lookup and without; both write it.
  func run(_ answer: String) async throws -> (SpeculativeDraftTests.Outcome, SpeculativeDraftTests.Outcome) {
    let vocabulary =
      ["{\"", "a\":\"", "b\":\"", "\",\"", "\"}", "\"", "\n", " ", ":", "-", "issued", "due", "march", "april"]
      + (0...9).map(String.init)
    let (drafted, plain) = try await NextValueLookupTests().run(
      answer, vocabulary: vocabulary, prompt: "issued: 14 march 2025\ndue: 2 april 2025\n",
      shape: "{\"a\":\"S\",\"b\":\"S\"}")
    #expect(drafted.text == answer)
    #expect(plain.text == answer)
    return (drafted, plain)
  }

  /// An answer that writes the dates in ISO 8601 form: the rest of the first date's form is
  /// guessed from its first character, and the next date is guessed right after its key. Every
  /// guess is confirmed; the lookup by tokens and by text alone finds none of it.
  @Test func datesAreGuessedInTheFormTheAnswerWrites() async throws {
    let (drafted, plain) = try await run("{\"a\":\"2025-03-14\",\"b\":\"2025-04-02\"}")
    let usage = try #require(drafted.summary?.usage)
    #expect(usage.confirmedDraftTokens == usage.draftTokens)
    // Of the dates' 20 characters, one token each, all but the first date's first and the one
    // the model writes after each whole draft (of 3 tokens at most here).
    #expect(usage.confirmedDraftTokens >= 15)
    #expect(drafted.evaluations < plain.evaluations)
  }

  /// An answer that writes the dates as the document does: no guess of another form is made
  /// (every one drafted is confirmed).
  @Test func datesWrittenAsTheDocumentDoesAreCopied() async throws {
    let (drafted, _) = try await run("{\"a\":\"14 march 2025\",\"b\":\"2 april 2025\"}")
    let usage = try #require(drafted.summary?.usage)
    #expect(usage.confirmedDraftTokens == usage.draftTokens)
  }
}
