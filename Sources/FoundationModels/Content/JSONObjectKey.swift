/// A JSON object's key, any string: the coding key of containers whose keys are data, not a
/// fixed set (generated content's properties, entry metadata).
struct JSONObjectKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
