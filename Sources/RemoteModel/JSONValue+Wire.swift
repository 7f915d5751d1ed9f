import Foundation
import JSON

/// Building and reading the JSON of the chat-completions protocol.
extension JSONValue {
  /// An object of `members`, in the order given.
  static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
    .object(members.map { JSONValue.Member(key: $0.key, value: $0.value) })
  }

  /// An integer.
  static func integer(_ value: some BinaryInteger) -> JSONValue {
    .number(ExactDecimal(isNegative: value < 0, digits: String(value.magnitude).utf8.map { $0 - 48 }, exponent: 0))
  }

  /// A number: the shortest decimal that reads back as `value`.
  /// - Throws: `EncodingError.invalidValue` for NaN and the infinities, which JSON cannot write.
  static func number(_ value: Double, name: String) throws -> JSONValue {
    guard value.isFinite, let decimal = ExactDecimal(jsonText: "\(value)") else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: [], debugDescription: "\(name) is \(value), which JSON cannot carry"))
    }
    return .number(decimal)
  }

  /// The text of a string; nil for any other value.
  var string: String? {
    guard case .string(let text) = self else { return nil }
    return text
  }

  /// The value of an integer that fits `Int`; nil for any other value.
  var integer: Int? {
    guard case .number(let number) = self, number.isInteger else { return nil }
    return Int(number.jsonText)
  }

  /// The elements of an array; nil for any other value.
  var elements: [JSONValue]? {
    guard case .array(let elements) = self else { return nil }
    return elements
  }

  /// Whether the value is an object.
  var isObject: Bool {
    guard case .object = self else { return false }
    return true
  }
}
