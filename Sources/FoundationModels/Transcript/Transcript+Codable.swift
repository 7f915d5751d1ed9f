/// The JSON form of a transcript, in the shape Apple's framework writes:
///
/// ```json
/// {"version":1,"type":"FoundationModels.Transcript","transcript":{"entries":[
///   {"id":"…","role":"instructions","contents":[…],"tools":[…]},
///   {"id":"…","role":"user","contents":[…],"options":{…},
///    "responseFormat":{"type":"jsonSchema","jsonSchema":{"name":"…","schema":{…}}}},
///   {"id":"…","role":"response","contents":[…],"assets":[…]},
///   {"id":"…","role":"response","contents":[],"toolCalls":[{"id":"…","name":"…","arguments":"{…}"}]},
///   {"id":"…","role":"tool","toolName":"…","toolCallID":"…","contents":[…]}]}}
/// ```
///
/// Keys Apple has not confirmed are our choice (verify on a 26.x device before claiming wire
/// compatibility):
/// - a tool-calls entry is a `response` entry whose `toolCalls` is not empty (as in Apple's
///   files), with the `ToolCalls` id as its id; a `response` with tool calls decodes as
///   `.toolCalls`;
/// - segments are `{"type":"text","id","text"}` and
///   `{"type":"structure","id","source","content":"<JSON string>"}`; structured content and tool
///   arguments are JSON strings, so key order survives decoding;
/// - tools are `{"type":"function","function":{"name","description","parameters":<schema>}}`;
/// - options are `{"sampling":{"type":"greedy"|"topK"|"topP","k"?,"probabilityThreshold"?,"seed"?},
///   "temperature"?,"maximumResponseTokens"?}`.
///
/// `version` decodes from `1` or a string such as `"1.1"` (the 27 framework's).
extension Transcript: Codable {
  private enum DocumentKey: String, CodingKey {
    case version, type, transcript
  }

  private enum BodyKey: String, CodingKey {
    case entries
  }

  static let typeName = "FoundationModels.Transcript"

  /// Matches FoundationModels `Transcript.encode(to:)`.
  public func encode(to encoder: any Encoder) throws {
    var document = encoder.container(keyedBy: DocumentKey.self)
    try document.encode(1, forKey: .version)
    try document.encode(Self.typeName, forKey: .type)
    var body = document.nestedContainer(keyedBy: BodyKey.self, forKey: .transcript)
    try body.encode(entries.map(EntryRecord.init), forKey: .entries)
  }

  /// Matches FoundationModels `Transcript.init(from:)`.
  /// - Throws: `DecodingError` when the document is not a transcript or an entry is malformed.
  public init(from decoder: any Decoder) throws {
    let document = try decoder.container(keyedBy: DocumentKey.self)
    if document.contains(.version), (try? document.decode(Int.self, forKey: .version)) == nil {
      _ = try document.decode(String.self, forKey: .version)
    }
    let type = try document.decode(String.self, forKey: .type)
    guard type == Self.typeName else {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: document, debugDescription: "Expected '\(Self.typeName)', found '\(type)'.")
    }
    let body = try document.nestedContainer(keyedBy: BodyKey.self, forKey: .transcript)
    let records = try body.decode([EntryRecord].self, forKey: .entries)
    entries = try records.map { try $0.entry(codingPath: decoder.codingPath) }
  }
}
