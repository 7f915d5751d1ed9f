/// Carries ``GeneratedContent`` through any `Encoder`/`Decoder` as the JSON value it holds.
///
/// Used by `GenerationSchema`'s `Codable` form. Decoding keeps key order only where the decoder
/// does (Foundation's `JSONDecoder` does not), so callers that need order encode it themselves
/// (`x-order` in schemas, JSON strings in transcripts).
struct CodableContent: Codable {
  var content: GeneratedContent

  init(_ content: GeneratedContent) {
    self.content = content
  }

  func encode(to encoder: any Encoder) throws {
    switch content.kind {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let value):
      var container = encoder.singleValueContainer()
      // Integral values as integers, so encoders write `0`, not `0.0`.
      if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(CodableContent(element)) }
    case .structure:
      var container = encoder.container(keyedBy: JSONObjectKey.self)
      for (key, value) in content.orderedProperties ?? [] {
        try container.encode(CodableContent(value), forKey: JSONObjectKey(stringValue: key))
      }
    }
  }

  init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: JSONObjectKey.self) {
      var builder = GeneratedContent.StructureBuilder()
      for key in container.allKeys {
        builder.set(key.stringValue, try container.decode(CodableContent.self, forKey: key).content)
      }
      content = GeneratedContent(kind: builder.kind)
    } else if var container = try? decoder.unkeyedContainer() {
      var elements: [GeneratedContent] = []
      while !container.isAtEnd {
        elements.append(try container.decode(CodableContent.self).content)
      }
      content = GeneratedContent(kind: .array(elements))
    } else {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        content = GeneratedContent(kind: .null)
      } else if let value = try? container.decode(Bool.self) {
        content = GeneratedContent(kind: .bool(value))
      } else if let value = try? container.decode(Double.self) {
        content = GeneratedContent(kind: .number(value))
      } else {
        content = GeneratedContent(kind: .string(try container.decode(String.self)))
      }
    }
  }
}
