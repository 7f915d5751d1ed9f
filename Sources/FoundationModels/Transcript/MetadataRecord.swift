import Foundation

/// The coded form of entry metadata: each value as the JSON its `Codable` conformance writes.
///
/// Decoding has no type information, so values come back as `Bool`, `Int`, `Double` or
/// `String` when they are JSON scalars, and as their JSON text (a `String`) when they are
/// arrays, objects or null; an app that stored its own `Codable` type decodes it from that text.
struct MetadataRecord: Codable {
  var values: TranscriptMetadata

  init(_ values: TranscriptMetadata) {
    self.values = values
  }

  private struct Value: Encodable {
    let value: any Encodable
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: JSONObjectKey.self)
    for key in values.keys.sorted() {
      guard let value = values[key] else { continue }
      try container.encode(Value(value: value), forKey: JSONObjectKey(stringValue: key))
    }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: JSONObjectKey.self)
    var values: TranscriptMetadata = [:]
    for key in container.allKeys {
      if let bool = try? container.decode(Bool.self, forKey: key) {
        values[key.stringValue] = bool
      } else if let int = try? container.decode(Int.self, forKey: key) {
        values[key.stringValue] = int
      } else if let double = try? container.decode(Double.self, forKey: key) {
        values[key.stringValue] = double
      } else if let string = try? container.decode(String.self, forKey: key) {
        values[key.stringValue] = string
      } else {
        values[key.stringValue] = try container.decode(CodableContent.self, forKey: key).content.jsonString
      }
    }
    self.values = values
  }

  /// nil for empty metadata, so transcripts without any keep their 26 shape.
  static func optional(_ values: TranscriptMetadata) -> MetadataRecord? {
    values.isEmpty ? nil : MetadataRecord(values)
  }
}

/// The coded form of `ContextOptions`.
struct ContextOptionsRecord: Codable {
  var includeSchemaInPrompt: Bool?
  var reasoningLevel: String?

  init?(_ options: ContextOptions) {
    guard options != ContextOptions() else { return nil }
    includeSchemaInPrompt = options.includeSchemaInPrompt
    switch options.reasoningLevel {
    case .light?: reasoningLevel = "light"
    case .moderate?: reasoningLevel = "moderate"
    case .deep?: reasoningLevel = "deep"
    case .custom(let level)?: reasoningLevel = "custom:" + level
    case nil: reasoningLevel = nil
    }
  }

  var options: ContextOptions {
    let level: ContextOptions.ReasoningLevel? =
      switch reasoningLevel {
      case "light"?: .light
      case "moderate"?: .moderate
      case "deep"?: .deep
      case let other?: .custom(other.hasPrefix("custom:") ? String(other.dropFirst(7)) : other)
      case nil: nil
      }
    return ContextOptions(includeSchemaInPrompt: includeSchemaInPrompt, reasoningLevel: level)
  }
}
