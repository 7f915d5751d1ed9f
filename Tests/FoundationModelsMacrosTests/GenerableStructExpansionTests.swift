import Testing

/// What `@Generable` and `@Guide` write for structs.
@Suite struct GenerableStructExpansionTests {
  @Test func structWithGuidesOptionalsAndArrays() {
    let expansion = MacroExpansion(
      """
      @Generable(description: "A book")
      public struct Book {
        @Guide(description: "The title")
        public var title: String
        @Guide(description: "Year", .range(1450...2100))
        var year: Int
        var subtitle: String?
        @Guide(.count(1...3))
        @Guide(.element(.anyOf(["a", "b"])))
        var tags: [String]
        @Guide(/[A-Z]{2}/)
        var code: String
        var computed: Int { year * 2 }
        static var shared = 0
        let fixed = 1
      }
      """)
    #expect(expansion.diagnostics.isEmpty)
    expansion.expect(
      """
      public struct Book {
        public var title: String
        var year: Int
        var subtitle: String?
        var tags: [String]
        var code: String
        var computed: Int { year * 2 }
        static var shared = 0
        let fixed = 1

        public nonisolated static var generationSchema: FoundationModels.GenerationSchema {
          FoundationModels.GenerationSchema(
            type: Self.self, description: "A book",
            properties: [
              FoundationModels.GenerationSchema.Property(name: "title", description: "The title", type: String.self),
              FoundationModels.GenerationSchema.Property(
                name: "year", description: "Year", type: Int.self,
                guides: [.range(1450...2100)] as [FoundationModels.GenerationGuide<Int>]),
              FoundationModels.GenerationSchema.Property(name: "subtitle", type: String?.self),
              FoundationModels.GenerationSchema.Property(
                name: "tags", type: [String].self,
                guides: [.count(1...3), .element(.anyOf(["a", "b"]))] as [FoundationModels.GenerationGuide<[String]>]),
              FoundationModels.GenerationSchema.Property(name: "code", type: String.self, guides: [/[A-Z]{2}/]),
            ]
          )
        }

        public nonisolated struct PartiallyGenerated: Swift.Identifiable, FoundationModels.ConvertibleFromGeneratedContent {
          public var id: FoundationModels.GenerationID
          public var title: String.PartiallyGenerated?
          public var year: Int.PartiallyGenerated?
          public var subtitle: String.PartiallyGenerated?
          public var tags: [String].PartiallyGenerated?
          public var code: String.PartiallyGenerated?
          public init(_ content: FoundationModels.GeneratedContent) throws {
            self.id = content.id ?? FoundationModels.GenerationID()
            self.title = try content.value(forProperty: "title")
            self.year = try content.value(forProperty: "year")
            self.subtitle = try content.value(forProperty: "subtitle")
            self.tags = try content.value(forProperty: "tags")
            self.code = try content.value(forProperty: "code")
          }
        }
      }

      nonisolated extension Book: Generable {
        public nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
          self.title = try content.value(forProperty: "title")
          self.year = try content.value(forProperty: "year")
          self.subtitle = try content.value(forProperty: "subtitle")
          self.tags = try content.value(forProperty: "tags")
          self.code = try content.value(forProperty: "code")
        }

        public nonisolated var generatedContent: FoundationModels.GeneratedContent {
          var properties: [(Swift.String, any FoundationModels.ConvertibleToGeneratedContent)] = []
          properties.append(("title", self.title))
          properties.append(("year", self.year))
          if let value = self.subtitle {
            properties.append(("subtitle", value))
          }
          properties.append(("tags", self.tags))
          properties.append(("code", self.code))
          return FoundationModels.GeneratedContent(properties: properties, uniquingKeysWith: { _, last in last })
        }
      }
      """)
  }

  @Test func withoutOptionalsContentIsOneLiteral() {
    let expansion = MacroExpansion(
      """
      @Generable
      struct Point {
        var x: Double, y: Double
      }
      """)
    #expect(expansion.diagnostics.isEmpty)
    expansion.expect(
      """
      struct Point {
        var x: Double, y: Double

        nonisolated static var generationSchema: FoundationModels.GenerationSchema {
          FoundationModels.GenerationSchema(
            type: Self.self,
            properties: [
              FoundationModels.GenerationSchema.Property(name: "x", type: Double.self),
              FoundationModels.GenerationSchema.Property(name: "y", type: Double.self),
            ]
          )
        }

        nonisolated struct PartiallyGenerated: Swift.Identifiable, FoundationModels.ConvertibleFromGeneratedContent {
          var id: FoundationModels.GenerationID
          var x: Double.PartiallyGenerated?
          var y: Double.PartiallyGenerated?
          init(_ content: FoundationModels.GeneratedContent) throws {
            self.id = content.id ?? FoundationModels.GenerationID()
            self.x = try content.value(forProperty: "x")
            self.y = try content.value(forProperty: "y")
          }
        }
      }

      nonisolated extension Point: Generable {
        nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
          self.x = try content.value(forProperty: "x")
          self.y = try content.value(forProperty: "y")
        }

        nonisolated var generatedContent: FoundationModels.GeneratedContent {
          return FoundationModels.GeneratedContent(properties: ["x": self.x, "y": self.y])
        }
      }
      """)
  }

  @Test func explicitNilWritesOptionalsDirectly() {
    let expansion = MacroExpansion(
      """
      @Generable(representNilExplicitlyInGeneratedContent: true)
      package struct Contact {
        var nickname: String?
      }
      """)
    #expect(expansion.diagnostics.isEmpty)
    expansion.expect(
      """
      package struct Contact {
        var nickname: String?

        package nonisolated static var generationSchema: FoundationModels.GenerationSchema {
          FoundationModels.GenerationSchema(
            type: Self.self, representNilExplicitlyInGeneratedContent: true,
            properties: [
              FoundationModels.GenerationSchema.Property(name: "nickname", type: String?.self),
            ]
          )
        }

        package nonisolated struct PartiallyGenerated: Swift.Identifiable, FoundationModels.ConvertibleFromGeneratedContent {
          package var id: FoundationModels.GenerationID
          package var nickname: String.PartiallyGenerated?
          package init(_ content: FoundationModels.GeneratedContent) throws {
            self.id = content.id ?? FoundationModels.GenerationID()
            self.nickname = try content.value(forProperty: "nickname")
          }
        }
      }

      nonisolated extension Contact: Generable {
        package nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
          self.nickname = try content.value(forProperty: "nickname")
        }

        package nonisolated var generatedContent: FoundationModels.GeneratedContent {
          return FoundationModels.GeneratedContent(properties: ["nickname": self.nickname])
        }
      }
      """)
  }

  @Test func ownIDReplacesTheGenerationIDAndBackticksAreKept() {
    let expansion = MacroExpansion(
      """
      @Generable
      struct Item: Generable {
        var id: String
        var `default`: Bool
      }
      """, conformances: [])
    #expect(expansion.diagnostics.isEmpty)
    expansion.expect(
      """
      struct Item: Generable {
        var id: String
        var `default`: Bool

        nonisolated static var generationSchema: FoundationModels.GenerationSchema {
          FoundationModels.GenerationSchema(
            type: Self.self,
            properties: [
              FoundationModels.GenerationSchema.Property(name: "id", type: String.self),
              FoundationModels.GenerationSchema.Property(name: "default", type: Bool.self),
            ]
          )
        }

        nonisolated struct PartiallyGenerated: Swift.Identifiable, FoundationModels.ConvertibleFromGeneratedContent {
          var id: String.PartiallyGenerated?
          var `default`: Bool.PartiallyGenerated?
          init(_ content: FoundationModels.GeneratedContent) throws {
            self.id = try content.value(forProperty: "id")
            self.`default` = try content.value(forProperty: "default")
          }
        }
      }

      nonisolated extension Item {
        nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
          self.id = try content.value(forProperty: "id")
          self.`default` = try content.value(forProperty: "default")
        }

        nonisolated var generatedContent: FoundationModels.GeneratedContent {
          return FoundationModels.GeneratedContent(properties: ["id": self.id, "default": self.`default`])
        }
      }
      """)
  }
}
