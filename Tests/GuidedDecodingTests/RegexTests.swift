import Testing

@testable import GuidedDecoding

@Suite struct RegexTests {
  func matches(_ pattern: String, _ text: String) throws -> Bool {
    let a = try CodePointAutomaton(pattern: pattern)
    var state: Int32? = a.start
    for s in text.unicodeScalars {
      guard let current = state else { return false }
      state = a.next(current, s.value)
    }
    return state.map { a.accepting[Int($0)] } ?? false
  }

  @Test(arguments: [
    ("^[a-z]+$", "abc", true), ("^[a-z]+$", "abC", false), ("^[a-z]+$", "", false),
    ("b", "abc", true), ("^b", "abc", false), ("c$", "abc", true), ("^a$|^b$", "b", true),
    ("^\\d{3}-\\d{4}$", "555-1234", true), ("^\\d{3}-\\d{4}$", "555-12345", false),
    ("^(?:ab){2,3}$", "abababab", false), ("^(?:ab){2,3}$", "abab", true),
    ("^[^0-9]*$", "héllo", true), ("^[^0-9]*$", "h3", false), ("^.$", "日", true), ("^.$", "\n", false),
    ("^\\w+@\\w+\\.com$", "me@x.com", true), ("^a?b+c*$", "bbb", true), ("^a?b+c*$", "ac", false),
    ("^[A-Z]{2}\\s\\S+$", "AB x", true), ("^(?<year>\\d{4})$", "2024", true), ("^\\u00e9$", "é", true),
    ("^[\\-+]?\\d+(\\.\\d+)?$", "-1.5", true), ("^x{2,}$", "xxx", true), ("^x{2,}$", "x", false),
  ])
  func patternSemantics(pattern: String, text: String, expected: Bool) throws {
    #expect(try matches(pattern, text) == expected)
  }

  @Test(arguments: ["(a)\\1", "(?=a)", "(?!a)", "\\bword", "\\p{L}", "(?i)abc", "a{2,1}", "[z-a]", "(ab", "ab)", "*a"])
  func unsupportedConstructsAreErrors(pattern: String) {
    #expect(throws: SchemaError.self) { try CodePointAutomaton(pattern: pattern) }
  }

  @Test(arguments: [
    (StringFormat.date, "2024-02-29", true), (.date, "2023-02-29", false), (.date, "2023-04-31", false),
    (.dateTime, "2024-01-01T12:00:00Z", true), (.dateTime, "2024-01-01 12:00:00", false),
    (.dateTime, "2024-01-01T12:00:00.5+05:30", true), (.time, "23:59:59Z", true), (.time, "24:00:00Z", false),
    (.uuid, "123e4567-e89b-12d3-a456-426614174000", true), (.uuid, "123e4567e89b12d3a456426614174000", false),
    (.email, "a@b.co", true), (.email, "ab.co", false),
  ])
  func formats(format: StringFormat, text: String, expected: Bool) throws {
    #expect(try matches(format.pattern, text) == expected)
  }
}
