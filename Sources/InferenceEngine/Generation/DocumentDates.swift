/// Dates a document writes with their month's name (`14 March 2025`, `June 3, 2024`, `Friday,
/// 14 March 2025`, `Sept. 3rd, 2024`), each with its ISO 8601 form (`2025-03-14`), which an
/// extraction's answer often writes instead (`DecodeSteps.draft`, `Guess.date`): no token of
/// the document holds that form, so neither lookup by tokens nor by text finds it.
///
/// Dates written with numbers only (`04/08/2025`) are left out: which of day and month comes
/// first is the writer's custom, and a wrong guess is dearer than none.
struct DocumentDates {
  /// A date in the text: its bytes `start..<end` (a weekday before it included) and its form.
  struct Date: Equatable {
    var start: Int
    var end: Int
    var iso: [UInt8]
  }

  /// The dates, in the order the text gives them.
  let dates: [Date]

  init(text: [UInt8]) {
    let words = Self.words(in: text)
    var dates: [Date] = []
    var index = 0
    while index < words.count {
      if let (date, next) = Self.date(at: index, in: words, text: text) {
        dates.append(date)
        index = next
      } else {
        index += 1
      }
    }
    self.dates = dates
  }

  /// The date whose ISO form begins with `value`, a value's text so far, and goes on after it:
  /// the text's next date not `written` yet (in ISO form) that ends at or after byte `cursor`
  /// (where the output reads the text on: a date that ends there may be the one it is writing),
  /// or its first date without a cursor. Once `value` holds a year and more (`2028-`), which
  /// few dates begin with, any such date will do, the first after the cursor first. Nil where
  /// none does.
  func date(continuing value: [UInt8], after cursor: Int?, excluding written: Set<[UInt8]> = []) -> Date? {
    func continues(_ date: Date) -> Bool { date.iso.count > value.count && date.iso.starts(with: value) }
    guard !value.isEmpty else { return nil }
    let unwritten = dates.filter { !written.contains($0.iso) }
    if let next = unwritten.first(where: { $0.end >= cursor ?? 0 }), continues(next) { return next }
    guard value.count > 4 else { return nil }
    let candidates = dates.filter(continues)
    return candidates.first { $0.end >= cursor ?? 0 } ?? candidates.first
  }

  /// The date that begins at byte `offset` (at its weekday where it has one), if any.
  func date(beginningAt offset: Int) -> Date? { dates.first { $0.start == offset } }

  /// Whether `value`, a string's text so far, begins as an ISO form does: a year and a dash.
  static func beginsISODate(_ value: [UInt8]) -> Bool {
    value.count > 4 && value.prefix(4).allSatisfy(\.isASCIIDigit) && value[4] == UInt8(ascii: "-")
  }

  /// Whether `text` ends with a string that is a date's ISO form: `"2025-03-14"`.
  static func endsWithISODate(_ text: [UInt8]) -> Bool {
    guard text.count >= isoStringPattern.count else { return false }
    return zip(text.suffix(isoStringPattern.count), isoStringPattern).allSatisfy { byte, expected in
      expected == UInt8(ascii: "d") ? byte.isASCIIDigit : byte == expected
    }
  }

  /// The bytes of a date's ISO form as a string, `d` for a digit.
  private static let isoStringPattern = Array("\"dddd-dd-dd\"".utf8)
  /// How many bytes `endsWithISODate` reads.
  static var isoStringLength: Int { isoStringPattern.count }

  /// A run of letters or of digits, lowercased.
  private struct Word {
    var start: Int
    var end: Int
    var text: [UInt8]
    var isNumber: Bool { text.first?.isASCIIDigit ?? false }
  }

  private static func words(in text: [UInt8]) -> [Word] {
    var words: [Word] = []
    var index = 0
    while index < text.count {
      let digits = text[index].isASCIIDigit
      guard digits || text[index].isASCIILetter else {
        index += 1
        continue
      }
      let start = index
      while index < text.count, digits ? text[index].isASCIIDigit : text[index].isASCIILetter { index += 1 }
      words.append(Word(start: start, end: index, text: text[start..<index].map { $0 | (digits ? 0 : 0x20) }))
    }
    return words
  }

  /// The date whose first word is `words[index]` (a weekday, a day or a month), and the index
  /// of the word after it: `14 March 2025`, `3rd of June, 2024`, `March 14, 2025`.
  private static func date(at index: Int, in words: [Word], text: [UInt8]) -> (Date, Int)? {
    var first = index
    if weekdays.contains(words[index].text), index + 1 < words.count, joined(words[index], words[index + 1], in: text) {
      first += 1
    }
    for dayFirst in [true, false] {
      var at = first
      let dayBefore = dayFirst ? Self.day(at: &at, in: words, text: text) : nil
      guard !dayFirst || dayBefore != nil, let month = month(at: &at, in: words, text: text),
        let day = dayBefore ?? Self.day(at: &at, in: words, text: text), at < words.count, words[at].isNumber,
        words[at].text.count == 4, let year = number(words[at])
      else { continue }
      return (Date(start: words[index].start, end: words[at].end, iso: iso(year, month, day)), at + 1)
    }
    return nil
  }

  /// A day of the month at `words[at]` (with its `st`, `nd`, `rd` or `th`, and an `of` after it),
  /// moving `at` to the next word where the date goes on.
  private static func day(at: inout Int, in words: [Word], text: [UInt8]) -> Int? {
    guard at < words.count, words[at].isNumber, words[at].text.count <= 2, let day = number(words[at]),
      (1...31).contains(day)
    else { return nil }
    var next = at + 1
    if next < words.count, ordinalSuffixes.contains(words[next].text), words[next].start == words[at].end {
      next += 1
    }
    if next < words.count, words[next].text == Array("of".utf8), joined(words[next - 1], words[next], in: text) {
      next += 1
    }
    guard next < words.count, joined(words[next - 1], words[next], in: text) else { return nil }
    at = next
    return day
  }

  /// A month's name or its abbreviation at `words[at]`, moving `at` to the next word where the
  /// date goes on.
  private static func month(at: inout Int, in words: [Word], text: [UInt8]) -> Int? {
    guard at + 1 < words.count, let month = months.firstIndex(where: { $0.contains(words[at].text) }),
      joined(words[at], words[at + 1], in: text)
    else { return nil }
    at += 1
    return month + 1
  }

  /// Whether only a short run of spaces, commas and points, on one line, parts two words.
  private static func joined(_ first: Word, _ second: Word, in text: [UInt8]) -> Bool {
    let between = text[first.end..<second.start]
    return between.count <= 3
      && between.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ".") }
  }

  private static func number(_ word: Word) -> Int? { Int(String(decoding: word.text, as: UTF8.self)) }

  private static func iso(_ year: Int, _ month: Int, _ day: Int) -> [UInt8] {
    func padded(_ value: Int, _ width: Int) -> String {
      String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }
    return Array("\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))".utf8)
  }

  private static let months: [Set<[UInt8]>] = [
    ["january", "jan"], ["february", "feb"], ["march", "mar"], ["april", "apr"], ["may"], ["june", "jun"],
    ["july", "jul"], ["august", "aug"], ["september", "sep", "sept"], ["october", "oct"], ["november", "nov"],
    ["december", "dec"],
  ].map { Set($0.map { Array($0.utf8) }) }
  private static let weekdays: Set<[UInt8]> = Set(
    [
      "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue", "tues", "wed",
      "thu", "thur", "thurs", "fri", "sat", "sun",
    ].map { Array($0.utf8) })
  private static let ordinalSuffixes: Set<[UInt8]> = Set(["st", "nd", "rd", "th"].map { Array($0.utf8) })
}
