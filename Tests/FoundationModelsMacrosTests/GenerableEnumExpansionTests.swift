import Testing

/// What `@Generable` writes for enums: string enumerations and discriminated unions.
@Suite struct GenerableEnumExpansionTests {
  @Test func enumWithoutAssociatedValuesIsAStringEnumeration() {
    let expansion = MacroExpansion(
      """
      @Generable(description: "A genre")
      public enum Genre: String {
        case fiction
        case poetry, `default`
      }
      """)
    #expect(expansion.diagnostics.isEmpty)
    expansion.expect(
      #"""
      public enum Genre: String {
        case fiction
        case poetry, `default`

        public nonisolated static var generationSchema: FoundationModels.GenerationSchema {
          FoundationModels.GenerationSchema(
            type: Self.self, description: "A genre", anyOf: ["fiction", "poetry", "default"])
        }
      }

      nonisolated extension Genre: Generable {
        public nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
          guard content.isComplete, case .string(let caseName) = content.kind else {
            throw FoundationModels.LanguageModelSession.GenerationError.decodingFailure(
              .init(debugDescription: "Cannot read \(Self.self) from \(content.jsonString); one of fiction, poetry, default was expected."))
          }
          switch caseName {
          case "fiction":
            self = .fiction
          case "poetry":
            self = .poetry
          case "default":
            self = .`default`
          default:
            throw FoundationModels.LanguageModelSession.GenerationError.decodingFailure(
              .init(debugDescription: "Cannot read \(Self.self) from \(content.jsonString); one of fiction, poetry, default was expected."))
          }
        }

        public nonisolated var generatedContent: FoundationModels.GeneratedContent {
          switch self {
          case .fiction:
            return FoundationModels.GeneratedContent(kind: .string("fiction"))
          case .poetry:
            return FoundationModels.GeneratedContent(kind: .string("poetry"))
          case .`default`:
            return FoundationModels.GeneratedContent(kind: .string("default"))
          }
        }
      }
      """#)
  }

  @Test func enumWithAssociatedValuesIsADiscriminatedUnion() {
    let expansion = MacroExpansion(
      """
      @Generable
      indirect enum Shape {
        case circle(radius: Double)
        case label(String, note: String?)
        case group([Shape])
        case empty
      }
      """)
    #expect(expansion.diagnostics.isEmpty)
    expansion.expect(
      #"""
      indirect enum Shape {
        case circle(radius: Double)
        case label(String, note: String?)
        case group([Shape])
        case empty

        nonisolated static var generationSchema: FoundationModels.GenerationSchema {
          FoundationModels.GenerationSchema(
            type: Self.self, anyOf: [Shape_circle.self, Shape_label.self, Shape_group.self, Shape_empty.self])
        }

        private nonisolated struct Shape_circle: FoundationModels.Generable {
          static var generationSchema: FoundationModels.GenerationSchema {
            FoundationModels.GenerationSchema(
              type: Self.self,
              properties: [
                FoundationModels.GenerationSchema.Property(
                  name: "type", type: Swift.String.self, guides: [.constant("circle")] as [FoundationModels.GenerationGuide<Swift.String>]),
                FoundationModels.GenerationSchema.Property(name: "radius", type: Double.self),
              ]
            )
          }
          var generatedContent: FoundationModels.GeneratedContent
          init(_ content: FoundationModels.GeneratedContent) {
            generatedContent = content
          }
        }

        private nonisolated struct Shape_label: FoundationModels.Generable {
          static var generationSchema: FoundationModels.GenerationSchema {
            FoundationModels.GenerationSchema(
              type: Self.self,
              properties: [
                FoundationModels.GenerationSchema.Property(
                  name: "type", type: Swift.String.self, guides: [.constant("label")] as [FoundationModels.GenerationGuide<Swift.String>]),
                FoundationModels.GenerationSchema.Property(name: "_0", type: String.self),
                FoundationModels.GenerationSchema.Property(name: "note", type: String?.self),
              ]
            )
          }
          var generatedContent: FoundationModels.GeneratedContent
          init(_ content: FoundationModels.GeneratedContent) {
            generatedContent = content
          }
        }

        private nonisolated struct Shape_group: FoundationModels.Generable {
          static var generationSchema: FoundationModels.GenerationSchema {
            FoundationModels.GenerationSchema(
              type: Self.self,
              properties: [
                FoundationModels.GenerationSchema.Property(
                  name: "type", type: Swift.String.self, guides: [.constant("group")] as [FoundationModels.GenerationGuide<Swift.String>]),
                FoundationModels.GenerationSchema.Property(name: "_0", type: [Shape].self),
              ]
            )
          }
          var generatedContent: FoundationModels.GeneratedContent
          init(_ content: FoundationModels.GeneratedContent) {
            generatedContent = content
          }
        }

        private nonisolated struct Shape_empty: FoundationModels.Generable {
          static var generationSchema: FoundationModels.GenerationSchema {
            FoundationModels.GenerationSchema(
              type: Self.self,
              properties: [
                FoundationModels.GenerationSchema.Property(
                  name: "type", type: Swift.String.self, guides: [.constant("empty")] as [FoundationModels.GenerationGuide<Swift.String>]),
              ]
            )
          }
          var generatedContent: FoundationModels.GeneratedContent
          init(_ content: FoundationModels.GeneratedContent) {
            generatedContent = content
          }
        }
      }

      nonisolated extension Shape: Generable {
        nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
          guard content.isComplete,
            let caseName = try? content.value(Swift.String.self, forProperty: "type")
          else {
            throw FoundationModels.LanguageModelSession.GenerationError.decodingFailure(
              .init(debugDescription: "Cannot read \(Self.self) from \(content.jsonString); an object whose 'type' is one of circle, label, group, empty was expected."))
          }
          switch caseName {
          case "circle":
            self = try .circle(radius: content.value(forProperty: "radius"))
          case "label":
            self = try .label(content.value(forProperty: "_0"), note: content.value(forProperty: "note"))
          case "group":
            self = try .group(content.value(forProperty: "_0"))
          case "empty":
            self = .empty
          default:
            throw FoundationModels.LanguageModelSession.GenerationError.decodingFailure(
              .init(debugDescription: "Cannot read \(Self.self) from \(content.jsonString); an object whose 'type' is one of circle, label, group, empty was expected."))
          }
        }

        nonisolated var generatedContent: FoundationModels.GeneratedContent {
          switch self {
          case .circle(let value0):
            return FoundationModels.GeneratedContent(properties: ["type": "circle", "radius": value0])
          case .label(let value0, let value1):
            var properties: [(Swift.String, any FoundationModels.ConvertibleToGeneratedContent)] = []
            properties.append(("type", "label"))
            properties.append(("_0", value0))
            if let value = value1 {
              properties.append(("note", value))
            }
            return FoundationModels.GeneratedContent(properties: properties, uniquingKeysWith: { _, last in last })
          case .group(let value0):
            return FoundationModels.GeneratedContent(properties: ["type": "group", "_0": value0])
          case .empty:
            return FoundationModels.GeneratedContent(properties: ["type": "empty"])
          }
        }
      }
      """#)
  }
}
