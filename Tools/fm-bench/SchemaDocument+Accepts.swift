import Foundation
import GuidedDecoding
import JSON

extension SchemaDocument {
  /// Whether `text` (surrounding whitespace aside) is JSON that this schema accepts: the check
  /// every guided-generation figure makes of an output.
  func accepts(_ text: String) -> Bool {
    guard let value = try? JSONValue(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      return false
    }
    return (try? SchemaValidator(document: self).validate(value, against: root)) ?? false
  }
}
