import Foundation

/// How custom segments are written to and read from a transcript's JSON.
///
/// A custom segment is stored as its type name, id, description and content JSON. No registry
/// of app types exists (Apple's SDK shows none either), so a decoded transcript holds a
/// ``DecodedCustomSegment`` holding the content's JSON text: its text reaches the model unchanged
/// and it encodes back to the same JSON.
enum CustomSegmentCoding {
  static func json(of content: some Encodable) -> String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(content)).map { String(decoding: $0, as: UTF8.self) }
  }
}

/// A custom segment read back from a transcript's JSON, its app type unknown: `content` is the
/// JSON the app type wrote.
struct DecodedCustomSegment: Transcript.CustomSegment {
  let id: String
  let typeName: String
  let content: String
  let text: String

  var description: String { text }
}
