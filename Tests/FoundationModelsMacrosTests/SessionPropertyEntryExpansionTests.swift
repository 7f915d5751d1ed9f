import Testing

/// `@SessionPropertyEntry`: a computed property over a peer key whose default is the initializer.
///
/// In-process expansion does not expand the module-qualified `@FoundationModels.__…` attribute
/// that the peer carries, so its own expansion is tested on its own; the provider tests compile
/// and run real entries.
@Suite struct SessionPropertyEntryExpansionTests {
  @Test func aVariableWithADefaultBecomesAKeyAndAccessors() {
    let expansion = MacroExpansion(
      """
      extension SessionPropertyValues {
        @SessionPropertyEntry var isExpertMode: Bool = false
      }
      """)
    #expect(expansion.diagnostics.isEmpty)
    expansion.expect(
      """
      extension SessionPropertyValues {
        var isExpertMode: Bool {
          get {
            self[__Key_isExpertMode.self]
          }
          set {
            self[__Key_isExpertMode.self] = newValue
          }
        }

        private struct __Key_isExpertMode: FoundationModels.SessionPropertyKey {
          typealias Value = Bool
          @FoundationModels.__SessionPropertyEntryDefaultValue
          static var defaultValue: Value = false
        }
      }
      """)
  }

  @Test func anOptionalWithoutADefaultStartsAsNil() {
    let expansion = MacroExpansion(
      """
      extension SessionPropertyValues {
        @SessionPropertyEntry public var nickname: String?
      }
      """)
    #expect(expansion.diagnostics.isEmpty)
    expansion.expect(
      """
      extension SessionPropertyValues {
        public var nickname: String? {
          get {
            self[__Key_nickname.self]
          }
          set {
            self[__Key_nickname.self] = newValue
          }
        }

        private struct __Key_nickname: FoundationModels.SessionPropertyKey {
          typealias Value = String?
          @FoundationModels.__SessionPropertyEntryDefaultValue
          static var defaultValue: Value = nil
        }
      }
      """)
  }

  @Test func theDefaultValueBecomesAGetter() {
    let expansion = MacroExpansion(
      """
      struct __Key_favourites: SessionPropertyKey {
        typealias Value = [String]
        @__SessionPropertyEntryDefaultValue
        static var defaultValue: Value = ["tea"]
      }
      """)
    #expect(expansion.diagnostics.isEmpty)
    expansion.expect(
      """
      struct __Key_favourites: SessionPropertyKey {
        typealias Value = [String]
        static var defaultValue: Value {
          get {
            ["tea"]
          }
        }
      }
      """)
  }

  @Test(arguments: [
    (
      "@SessionPropertyEntry var count = 0",
      "'@SessionPropertyEntry' needs the type of 'count'; write 'var count: Type = value'"
    ),
    (
      "@SessionPropertyEntry var count: Int",
      "'@SessionPropertyEntry' needs a default value for 'count'; write 'var count: Type = value'"
    ),
    (
      "@SessionPropertyEntry let count: Int = 0",
      "'@SessionPropertyEntry' can only be used on a single stored 'var' in an extension of SessionPropertyValues"
    ),
    (
      "@SessionPropertyEntry static var count: Int = 0",
      "'@SessionPropertyEntry' can only be used on a single stored 'var' in an extension of SessionPropertyValues"
    ),
  ])
  func misuseIsAnErrorAtTheAttribute(declaration: String, message: String) {
    let expansion = MacroExpansion(
      """
      extension SessionPropertyValues {
        \(declaration)
      }
      """)
    #expect(expansion.messages == [message], "reported once, at the attribute")
    #expect(!expansion.expandedSource.contains("__Key_count"))
  }
}
