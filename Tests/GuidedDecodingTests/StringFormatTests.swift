import JSON
import Testing

@testable import GuidedDecoding

/// The formats generation enforces: valid values are written or accepted, invalid ones never
/// (the JSON Schema test suite's `optional/format` files are the full check, run by maskbench).
@Suite struct StringFormatTests {
  struct FormatCase: CustomTestStringConvertible, Sendable {
    var format: String
    var value: String
    var valid: Bool
    var testDescription: String { "\(format) \(valid ? "accepts" : "rejects") \(value)" }
    init(_ format: String, _ value: String, _ valid: Bool) {
      self.format = format
      self.value = value
      self.valid = valid
    }
  }

  @Test(arguments: [
    FormatCase("uri", "https://example.com/a/b?c=d#e", true),
    FormatCase("uri", "urn:isbn:0451450523", true),
    FormatCase("uri", "http://[2001:db8::7]/c", true),
    FormatCase("uri", "//example.com/relative", false),
    FormatCase("uri", "http://exa mple.com", false),
    FormatCase("uri-reference", "/relative/path?x=1", true),
    FormatCase("uri-reference", "#fragment", true),
    FormatCase("uri-reference", "\\\\windows\\path", false),
    FormatCase("iri", "http://ƒøø.ßår/?∂éœ=πîx#πîüx", true),
    FormatCase("iri", "http://example.com/ space", false),
    FormatCase("uri-template", "http://example.com/{term:1}/{term}", true),
    FormatCase("uri-template", "{a,,b}", false),
    FormatCase("hostname", "www.example.com", true),
    FormatCase("hostname", "-example.com", false),
    FormatCase("hostname", "host_name", false),
    FormatCase("hostname", "ab--cd.com", false),
    FormatCase("hostname", String(repeating: "a", count: 63) + ".com", true),
    FormatCase("hostname", String(repeating: "a", count: 64) + ".com", false),
    FormatCase("ipv6", "::1", true),
    FormatCase("ipv6", "1:2:3:4:5:6:7:8", true),
    FormatCase("ipv6", "::ffff:192.168.0.1", true),
    FormatCase("ipv6", "1::2::3", false),
    FormatCase("ipv6", "12345::", false),
    FormatCase("duration", "P1Y2M3DT4H5M6S", true),
    FormatCase("duration", "P2W", true),
    FormatCase("duration", "PT36H", true),
    FormatCase("duration", "P1Y2D", false),
    FormatCase("duration", "PT", false),
    FormatCase("json-pointer", "/a~1b/0", true),
    FormatCase("json-pointer", "a/b", false),
    FormatCase("relative-json-pointer", "1/a", true),
    FormatCase("relative-json-pointer", "0#", true),
    FormatCase("relative-json-pointer", "-1/a", false),
    FormatCase("email", "joe.bloggs@example.com", true),
    FormatCase("email", "te..st@example.com", false),
    FormatCase("idn-email", "실례@실례.테스트", true),
  ])
  func formatsAcceptTheirValues(c: FormatCase) throws {
    let schema = #"{"type":"string","format":"\#(c.format)"}"#
    var quoted: [UInt8] = []
    JSONValue.appendJSONString(c.value, to: &quoted)
    let a = try automaton(schema, constraint: .standard)
    #expect(a.accepts(String(decoding: quoted, as: UTF8.self)) == c.valid)
  }

  @Test func hostnamesAreAtMost253Characters() throws {
    let label = String(repeating: "a", count: 63)
    let long = [label, label, label, label].joined(separator: ".")  // 255 characters
    let a = try automaton(#"{"type":"string","format":"hostname"}"#)
    #expect(!a.accepts("\"\(long)\""))
    #expect(a.accepts("\"\(long.dropFirst(3))\""))
  }

  @Test func generationWritesPlainEmailAddresses() throws {
    let schema = #"{"type":"string","format":"email"}"#
    let quotedLocalPart = #""\"joe bloggs\"@example.com""#
    #expect(try automaton(schema, constraint: .standard).accepts(quotedLocalPart))
    #expect(try !automaton(schema).accepts(quotedLocalPart))
    #expect(try automaton(schema).accepts(#""joe.bloggs@example.com""#))
  }

  @Test func formatsAnnotateUnderDraft2020() throws {
    let schema = #"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"string","format":"date"}"#
    // The standard's meaning: an annotation, any string is valid.
    #expect(try automaton(schema, constraint: .standard).accepts(#""tomorrow""#))
    let document = try JSONSchemaParser().parse(schema)
    #expect(try SchemaValidator(document: document).validate(.string("tomorrow"), against: document.root))
    // Generation still writes a date.
    #expect(try !automaton(schema).accepts(#""tomorrow""#))
    #expect(try automaton(schema).accepts(#""2024-02-29""#))
    // Draft 7 asserts it.
    let draft7 = #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"string","format":"date"}"#
    #expect(try !automaton(draft7, constraint: .standard).accepts(#""tomorrow""#))
  }

  @Test func formatsWithoutAnEnforceablePatternAreRefused() {
    #expect(throws: SchemaError.unsupportedKeyword("format:regex", path: "/format")) {
      try automaton(#"{"type":"string","format":"regex"}"#)
    }
  }
}
