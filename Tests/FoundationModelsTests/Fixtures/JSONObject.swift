import Foundation
import Testing

/// Decodes JSON text into Foundation objects for shape assertions.
func jsonObject(_ data: Data) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// Encodes a value with `JSONEncoder` and returns the JSON object.
func encodedObject(_ value: some Encodable) throws -> [String: Any] {
  try jsonObject(try JSONEncoder().encode(value))
}

extension Dictionary where Key == String, Value == Any {
  /// A nested object, for tests.
  func object(_ key: String) throws -> [String: Any] {
    try #require(self[key] as? [String: Any], "no object at '\(key)' in \(self)")
  }

  /// A nested array, for tests.
  func array(_ key: String) throws -> [Any] {
    try #require(self[key] as? [Any], "no array at '\(key)' in \(self)")
  }
}
