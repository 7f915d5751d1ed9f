/// Metadata of transcript entries and requests: values of any `Codable`, `Equatable` type,
/// keyed by name.
///
/// Apple spells the type out everywhere; this alias is internal.
typealias TranscriptMetadata = [String: any Sendable & Codable & Equatable]

/// Compares two metadata dictionaries value by value (the values are existentials, so `==` is
/// opened per value: equal when both have the same keys and each pair has the same type and
/// compares equal).
func metadataEqual(_ lhs: TranscriptMetadata, _ rhs: TranscriptMetadata) -> Bool {
  guard lhs.count == rhs.count else { return false }
  for (key, left) in lhs {
    guard let right = rhs[key], valuesEqual(left, right) else { return false }
  }
  return true
}

private func valuesEqual<Value: Equatable>(_ left: Value, _ right: any Sendable & Codable & Equatable) -> Bool {
  (right as? Value) == left
}
