import Testing

/// Misuse of `@Generable` and `@Guide` is a compiler error at the offending code.
@Suite struct GenerableDiagnosticsTests {
  @Test(arguments: ["class", "actor", "protocol"])
  func onlyStructsAndEnums(kind: String) {
    let expansion = MacroExpansion(
      """
      @Generable
      \(kind) Thing {}
      """)
    #expect(expansion.diagnostics == ["1:1: '@Generable' can only be used on structs and enums"])
    #expect(!expansion.expandedSource.contains("generationSchema"))
  }

  @Test func guideOnAComputedProperty() {
    let expansion = MacroExpansion(
      """
      @Generable
      struct Doubled {
        var a: Int
        @Guide(description: "twice a")
        var b: Int { a * 2 }
      }
      """)
    #expect(
      expansion.messages == ["'@Guide' cannot be used on computed property 'b'; only stored properties are generated"])
  }

  @Test func guideOnSomethingElse() {
    let expansion = MacroExpansion(
      """
      struct S {
        @Guide(description: "no")
        static var shared: Int = 0
        @Guide(description: "no")
        func f() {}
      }
      """)
    #expect(
      expansion.messages == [
        "'@Guide' can only be used on stored properties", "'@Guide' can only be used on stored properties",
      ])
  }

  @Test func unsupportedPropertyTypesAreAllReported() {
    let expansion = MacroExpansion(
      """
      @Generable
      struct Event {
        var when: Date
        var counts: [String: Int]
        var tags: Set<String>
        var small: UInt8
        var maybe: [String?]
        var twice: Int??
        var pair: (Int, Int)
        var id: GenerationID
      }
      """)
    #expect(
      expansion.diagnostics == [
        "3:13: 'Date' is not supported by '@Generable': use a String (for example an ISO 8601 date) or a '@Generable' struct",
        "4:15: '[String: Int]' is not supported by '@Generable': dictionaries are not Generable; use an array of a '@Generable' struct",
        "5:13: 'Set<String>' is not supported by '@Generable': use an array",
        "6:14: 'UInt8' is not supported by '@Generable': the only Generable integer type is Int",
        "7:15: '[String?]' is not supported by '@Generable': arrays of optionals are not Generable; leave the optional out",
        "8:14: 'Int??' is not supported by '@Generable': nested optionals are not Generable; use one '?'",
        "9:13: '(Int, Int)' is not supported by '@Generable': tuples are not Generable; use a '@Generable' struct",
        "10:11: 'GenerationID' is not supported by '@Generable': 'PartiallyGenerated' already has 'id: GenerationID'; leave this property out",
      ])
    #expect(!expansion.expandedSource.contains("extension Event"))
  }

  @Test func missingTypeAnnotation() {
    let expansion = MacroExpansion(
      """
      @Generable
      struct Counter {
        var count = 0
      }
      """)
    #expect(expansion.diagnostics == ["3:7: '@Generable' needs an explicit type for property 'count'"])
  }

  @Test func enumProblems() {
    let empty = MacroExpansion("@Generable enum Nothing {}")
    #expect(empty.diagnostics == ["1:17: '@Generable' enum needs at least one case"])
    let clash = MacroExpansion("@Generable enum Tagged { case a(type: String), b(Date) }")
    #expect(
      clash.diagnostics == [
        "1:33: an associated value of a '@Generable' enum cannot be named 'type': that key holds the case name",
        "1:50: 'Date' is not supported by '@Generable': use a String (for example an ISO 8601 date) or a '@Generable' struct",
      ])
  }

  @Test func representNilMustBeALiteral() {
    let expansion = MacroExpansion(
      """
      @Generable(representNilExplicitlyInGeneratedContent: flag)
      struct S { var a: Int? }
      """)
    #expect(
      expansion.diagnostics == [
        "1:54: 'representNilExplicitlyInGeneratedContent' must be the literal 'true' or 'false'"
      ])
  }
}
