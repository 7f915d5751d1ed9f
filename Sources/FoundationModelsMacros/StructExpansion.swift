import SwiftSyntax
import SwiftSyntaxBuilder

/// `@Generable` on a struct: an object whose properties are the stored properties, in
/// declaration order.
///
/// For
///
/// ```swift
/// @Generable struct Book {
///   @Guide(description: "The title") var title: String
///   var subtitle: String?
/// }
/// ```
///
/// it writes `generationSchema` (`GenerationSchema(type:description:properties:)`),
/// `init(_:)` reading each property with `value(forProperty:)`, `generatedContent` (absent
/// optionals left out unless `representNilExplicitlyInGeneratedContent: true`), and
/// `PartiallyGenerated`, whose properties are all `T.PartiallyGenerated?` and which never
/// throws for a property that is missing or still incomplete.
struct StructExpansion: GenerableExpansion {
  let options: GenerableOptions
  let properties: [GenerableProperty]

  func members() -> [DeclSyntax] {
    [generationSchema, partiallyGenerated]
  }

  func extensionMembers() -> [DeclSyntax] {
    [initializer, generatedContent]
  }

  private var access: String { options.accessPrefix }

  private var generationSchema: DeclSyntax {
    let schemaProperties = properties.map {
      ExpansionSource.schemaProperty(
        key: $0.key, description: $0.guide.description?.description, type: $0.type,
        guides: $0.guide.guides)
    }
    return """
      \(raw: access)nonisolated static var generationSchema: \(raw: ExpansionSource.schema) {
      \(raw: ExpansionSource.objectSchema(arguments: options.schemaArguments, properties: schemaProperties))
      }
      """
  }

  private var partiallyGenerated: DeclSyntax {
    // A property named `id` takes the place of the generation id (it still identifies).
    let hasOwnID = properties.contains { $0.key == "id" }
    var declarations = hasOwnID ? [] : ["\(access)var id: FoundationModels.GenerationID"]
    declarations += properties.map { "\(access)var \($0.identifier): \($0.type.partiallyGeneratedSource)" }
    let assignments = (hasOwnID ? [] : ["self.id = content.id ?? FoundationModels.GenerationID()"]) + readProperties
    return """
      \(raw: access)nonisolated struct PartiallyGenerated: Swift.Identifiable, FoundationModels.ConvertibleFromGeneratedContent {
      \(raw: declarations.joined(separator: "\n"))
      \(raw: access)init(_ content: \(raw: ExpansionSource.content)) throws {
      \(raw: assignments.joined(separator: "\n"))
      }
      }
      """
  }

  /// Statements that set every property from `content`.
  ///
  /// The type of each property picks the `value(_:forProperty:)` overload: optionals (and so every
  /// property of `PartiallyGenerated`) read as `nil` when absent or still incomplete.
  private var readProperties: [String] {
    properties.map {
      "self.\($0.identifier) = try content.value(forProperty: \(ExpansionSource.stringLiteral($0.key)))"
    }
  }

  private var initializer: DeclSyntax {
    """
    \(raw: access)nonisolated init(_ content: \(raw: ExpansionSource.content)) throws {
    \(raw: readProperties.joined(separator: "\n"))
    }
    """
  }

  private var generatedContent: DeclSyntax {
    let entries = properties.map {
      ContentEntry(key: $0.key, value: "self.\($0.identifier)", isOptional: $0.type.isOptional)
    }
    let body = ExpansionSource.returnContent(
      entries, representsNilExplicitly: options.representsNilExplicitly ?? false)
    return """
      \(raw: access)nonisolated var generatedContent: \(raw: ExpansionSource.content) {
      \(raw: body)
      }
      """
  }
}
