import Foundation
import JSON

/// Lowers a plain JSON Schema document (drafts 4 to 2020-12, and Apple's `GenerationSchema`
/// dialect) into a `SchemaDocument`.
///
/// Every keyword is either enforced, recognised as an annotation, or rejected with
/// `SchemaError.unsupportedKeyword` naming it — a constraint is never silently dropped.
/// Keywords whose value makes them a no-op (`uniqueItems: false`, `minProperties: 0`, …)
/// are accepted.
public struct JSONSchemaParser: Sendable {
  /// Choices that change how schemas are read.
  public struct Options: Sendable, Hashable {
    /// Treat an object schema without `additionalProperties` as if it said `false`.
    ///
    /// JSON Schema allows any extra member by default, and that is the default here too; a
    /// caller that wants only declared properties (Apple's behaviour) turns this on.
    public var closesObjectsByDefault: Bool
    /// Accept keywords that belong to no JSON Schema vocabulary (`example`, `readonly`,
    /// vendor fields) as annotations instead of rejecting them.
    ///
    /// Off by default: an unknown keyword might be a constraint the author expects to hold.
    public var acceptsUnknownKeywords: Bool

    public init(closesObjectsByDefault: Bool = false, acceptsUnknownKeywords: Bool = false) {
      self.closesObjectsByDefault = closesObjectsByDefault
      self.acceptsUnknownKeywords = acceptsUnknownKeywords
    }
  }

  public var options: Options

  public init(options: Options = Options()) {
    self.options = options
  }

  /// Parses schema JSON text.
  /// - Throws: `SchemaError`.
  public func parse(_ text: String) throws -> SchemaDocument {
    try parse(Data(text.utf8))
  }

  /// Parses schema JSON bytes.
  /// - Throws: `SchemaError`.
  public func parse(_ data: Data) throws -> SchemaDocument {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: data)
    } catch {
      throw SchemaError.invalidSchema("\(error)", path: "")
    }
    return try parse(value)
  }

  /// Parses an already parsed schema.
  /// - Throws: `SchemaError`.
  public func parse(_ schema: JSONValue) throws -> SchemaDocument {
    var lowering = SchemaLowering(document: schema, options: options)
    let root = try lowering.lower(schema, path: "")
    try lowering.resolvePendingReferences()
    var draft4 = false
    var annotatingFormats = false
    if case .string(let uri)? = schema["$schema"] {
      draft4 = uri.contains("draft-04") || uri.contains("draft-03")
      annotatingFormats = uri.contains("2019-09") || uri.contains("2020-12")
    }
    return SchemaDocument(
      root: root, definitions: lowering.definitions, floatLiteralsAreNotIntegers: draft4,
      formatsAreAnnotations: annotatingFormats)
  }
}
