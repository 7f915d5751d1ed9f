import JSON
import Testing

@testable import GuidedDecoding

/// `multipleOf`, checked against brute force: every number of a range is accepted exactly when
/// it is a multiple within the bounds, and every accepted prefix can still be completed.
@Suite struct MultipleOfTests {
  static let schemas = [
    #"{"type":"integer","multipleOf":7}"#,
    #"{"type":"integer","multipleOf":7,"minimum":-30,"maximum":45}"#,
    #"{"type":"integer","multipleOf":25,"exclusiveMinimum":0,"exclusiveMaximum":200}"#,
    #"{"type":"integer","multipleOf":0.5,"maximum":12}"#,
    #"{"type":"number","multipleOf":0.25,"minimum":-3,"maximum":3}"#,
    #"{"type":"number","multipleOf":0.01,"minimum":0}"#,
    #"{"type":"number","multipleOf":1.5}"#,
    #"{"type":"integer","multipleOf":400,"minimum":1000,"maximum":1300}"#,
    #"{"type":"number","multipleOf":1.0,"minimum":-20}"#,
  ]

  /// Integers from -300 to 300 and a few beyond, and decimals with up to three fraction digits in -4…4.
  static let values: [String] = {
    var values = (-300...300).map { "\($0)" } + ["1200", "1300", "1600"]
    for hundredths in stride(from: -400, through: 400, by: 1) {
      let v = Double(hundredths) / 100
      values.append(ExactDecimal(jsonText: String(format: "%.2f", v))?.jsonText ?? "")
    }
    values += ["0.125", "-2.875", "1.005", "12.5", "11.5", "2.999"]
    return Array(Set(values.filter { !$0.isEmpty }))
  }()

  @Test(arguments: schemas)
  func acceptanceMatchesTheDefinition(schema: String) throws {
    let document = try JSONSchemaParser().parse(schema)
    let a = try ConstraintAutomaton(document)
    let validator = SchemaValidator(document: document)
    for text in Self.values {
      let value = try #require(ExactDecimal(jsonText: text))
      let expected = try validator.validate(.number(value), against: document.root)
      #expect(a.accepts(text) == expected, "\(schema): \(text)")
      // No dead ends: a prefix the automaton allows can always be finished.
      for end in text.indices.dropFirst() {
        if let s = a.next(a.initialState, bytes: Array(text[..<end].utf8)) {
          #expect(a.closingBytes(from: s) != nil, "\(schema): \(text[..<end])")
        }
      }
    }
  }

  @Test func closingCompletesAMultiple() throws {
    let a = try automaton(#"{"type":"integer","multipleOf":400,"minimum":1000,"maximum":1300}"#)
    let s = try #require(a.next(a.initialState, bytes: Array("1".utf8)))
    #expect(String(decoding: try #require(a.closingBytes(from: s)), as: UTF8.self) == "200")
    #expect(!a.allowsPrefix("11"))
    #expect(!a.allowsPrefix("9"))
  }

  /// Numbers longer than `Int` holds: every prefix can still be finished as a multiple.
  @Test(arguments: ["422976743553443694480.0", "-98765432109876543210.5", "12345678901234567890123"])
  func longNumbersNeverDeadEnd(text: String) throws {
    for schema in [#"{"type":"number","multipleOf":1.0}"#, #"{"type":"number","multipleOf":0.5}"#] {
      let a = try automaton(schema)
      for end in text.indices.dropFirst() {
        let prefix = String(text[..<end])
        guard let s = a.next(a.initialState, bytes: Array(prefix.utf8)) else { continue }
        #expect(a.closingBytes(from: s) != nil, "\(schema): \(prefix)")
      }
    }
  }

  @Test func validatorChecksLongDivisors() {
    let step = ExactDecimal(jsonText: "0.0000000000000000003")
    #expect(ExactDecimal(jsonText: "0.0000000000000000009")?.isMultiple(of: step!) == true)
    #expect(ExactDecimal(jsonText: "0.000000000000000001")?.isMultiple(of: step!) == false)
  }

  @Test func divisorsOutOfReachAreRefused() {
    #expect(throws: SchemaError.unsupportedKeyword("multipleOf (more than 15 digits)", path: "/multipleOf")) {
      try JSONSchemaParser().parse(#"{"type":"number","multipleOf":0.0000000000000000003}"#)
    }
    #expect(throws: SchemaError.invalidSchema("multipleOf must be above zero", path: "/multipleOf")) {
      try JSONSchemaParser().parse(#"{"type":"number","multipleOf":0}"#)
    }
  }
}
