/// A type that represents structured, generated content.
///
/// Matches FoundationModels `GeneratedContent`. It may contain a single value, an array, or
/// key-value pairs with unique keys; object keys keep the order in which they were given
/// (for generated output: the order of the schema's properties).
///
/// Equality compares ``kind``, ``id`` and ``isComplete``, so content decoded again from JSON
/// (which carries no `id`) compares unequal to content that had an id — as on Apple platforms.
public struct GeneratedContent: Sendable, Equatable, CustomDebugStringConvertible {
  /// The kind representation of this generated content.
  ///
  /// Matches FoundationModels `GeneratedContent.kind`.
  public private(set) var kind: Kind

  /// A unique id that is stable for the duration of a generated response.
  ///
  /// Matches FoundationModels `GeneratedContent.id`.
  public var id: GenerationID?

  /// Whether this content and everything inside it has been completely generated.
  ///
  /// Matches FoundationModels `GeneratedContent.isComplete`. Content built in code is complete.
  /// Content parsed by ``init(json:)`` from a JSON prefix is incomplete where the prefix stops:
  /// an unterminated string, array or object, and a number that ends the input inside a
  /// container (more digits may follow). Any incomplete value makes every container around it
  /// incomplete too.
  public private(set) var isComplete: Bool

  /// Creates content with an explicit completeness; used by the partial JSON parser.
  init(kind: Kind, id: GenerationID? = nil, isComplete: Bool) {
    self.kind = kind
    self.id = id
    self.isComplete = isComplete && kind.childrenAreComplete
  }

  /// Creates content of the given kind.
  ///
  /// Matches FoundationModels `GeneratedContent.init(kind:id:)`.
  /// - Parameters:
  ///   - kind: The value, array or structure this content holds.
  ///   - id: An identifier for streamed content.
  public init(kind: Kind, id: GenerationID? = nil) {
    self.init(kind: kind, id: id, isComplete: true)
  }

  /// Creates content that represents a value.
  ///
  /// Matches FoundationModels `GeneratedContent.init(_:)`.
  public init(_ value: some ConvertibleToGeneratedContent) {
    self = value.generatedContent
  }

  /// Creates content that represents a value, with an identifier.
  ///
  /// Matches FoundationModels `GeneratedContent.init(_:id:)`.
  public init(_ value: some ConvertibleToGeneratedContent, id: GenerationID) {
    self = value.generatedContent
    self.id = id
  }

  /// Creates content that holds key-value pairs, in the order given.
  ///
  /// Matches FoundationModels `GeneratedContent.init(properties:id:)`. The order of the
  /// properties matters: it should match the order of the properties in the type's schema.
  /// If a key appears twice, the later value replaces the earlier one at the earlier position.
  public init(
    properties: KeyValuePairs<String, any ConvertibleToGeneratedContent>, id: GenerationID? = nil
  ) {
    var builder = StructureBuilder()
    for (key, value) in properties {
      builder.set(key, value.generatedContent)
    }
    self.init(kind: builder.kind, id: id)
  }

  /// Creates content that holds key-value pairs from a sequence, combining duplicate keys.
  ///
  /// Matches FoundationModels `GeneratedContent.init(properties:id:uniquingKeysWith:)`.
  /// - Parameters:
  ///   - properties: The key-value pairs, in schema order.
  ///   - id: An identifier for streamed content.
  ///   - combine: Called with the existing and the new value when a key repeats; its result
  ///     takes the key's first position.
  /// - Throws: Whatever `combine` throws.
  public init<S: Sequence>(
    properties: S, id: GenerationID? = nil,
    uniquingKeysWith combine: (GeneratedContent, GeneratedContent) throws -> some ConvertibleToGeneratedContent
  ) rethrows where S.Element == (String, any ConvertibleToGeneratedContent) {
    var builder = StructureBuilder()
    for (key, value) in properties {
      let content = value.generatedContent
      if let existing = builder.properties[key] {
        builder.set(key, try combine(existing, content).generatedContent)
      } else {
        builder.set(key, content)
      }
    }
    self.init(kind: builder.kind, id: id)
  }

  /// Creates content that holds an array of elements.
  ///
  /// Matches FoundationModels `GeneratedContent.init(elements:id:)`.
  public init<S: Sequence>(elements: S, id: GenerationID? = nil)
  where S.Element == any ConvertibleToGeneratedContent {
    self.init(kind: .array(elements.map { $0.generatedContent }), id: id)
  }

  /// Creates content by parsing JSON, which may be incomplete.
  ///
  /// Matches FoundationModels `GeneratedContent.init(json:)`. The JSON may stop anywhere, as it
  /// does while a response streams: an unterminated string keeps the text so far, unterminated
  /// arrays and objects keep their finished members, and a key without a value (or with a
  /// partial literal such as `tru`) is left out. ``isComplete`` tells which parts are finished.
  /// - Throws: `LanguageModelSession.GenerationError.decodingFailure` when the text is not a
  ///   prefix of valid JSON, holds no value at all, or has characters after the value.
  public init(json: String) throws {
    self = try PartialJSONParser.parse(json)
  }

  /// A description of the content for debugging: its JSON form.
  ///
  /// Matches FoundationModels `GeneratedContent.debugDescription`.
  public var debugDescription: String {
    jsonString
  }
}

extension GeneratedContent {
  /// Collects properties in first-insertion order; a repeated key replaces the value in place.
  struct StructureBuilder {
    var properties: [String: GeneratedContent] = [:]
    var orderedKeys: [String] = []

    mutating func set(_ key: String, _ value: GeneratedContent) {
      if properties.updateValue(value, forKey: key) == nil {
        orderedKeys.append(key)
      }
    }

    var kind: Kind { .structure(properties: properties, orderedKeys: orderedKeys) }
  }
}
