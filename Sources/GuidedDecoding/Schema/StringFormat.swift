/// A named string format (JSON Schema `format`) the engine enforces with a built-in pattern
/// (`StringFormat+Pattern.swift`).
///
/// Generation always writes well-formed values. Checking text against the standard's meaning
/// (`ConstraintOptions.standard`, `SchemaValidator`) asserts formats as drafts 4 to 7 allow and
/// treats them as annotations under drafts 2019-09 and 2020-12, whose format vocabulary only
/// annotates by default (`SchemaDocument.formatsAreAnnotations`).
public enum StringFormat: String, Sendable, Hashable, CaseIterable {
  case dateTime = "date-time"
  case date
  case time
  case duration
  case uuid
  case email
  case idnEmail = "idn-email"
  case hostname
  case ipv4
  case ipv6
  case uri
  case uriReference = "uri-reference"
  case iri
  case iriReference = "iri-reference"
  case uriTemplate = "uri-template"
  case jsonPointer = "json-pointer"
  case relativeJSONPointer = "relative-json-pointer"

  /// The most characters a value may have, where the format bounds it beyond its pattern
  /// (RFC 1123: a host name has at most 253).
  public var maximumLength: Int? {
    self == .hostname ? 253 : nil
  }
}
