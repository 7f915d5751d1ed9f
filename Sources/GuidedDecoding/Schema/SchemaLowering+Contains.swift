import JSON

/// Lowering of `contains` with `minContains` and `maxContains`.
extension SchemaLowering {
  /// The array's `contains` counting, with each element's matching form (its item schema
  /// merged with `contains`) and, under a `maxContains`, its non-matching form (merged with
  /// the complement of `contains`, `SchemaNegation`); nil without `contains`, or when
  /// `minContains: 0` leaves nothing to count.
  mutating func containsConstraint(_ keywords: [String: JSONValue], _ array: ArrayConstraints, path: String) throws
    -> ArrayConstraints.Contains?
  {
    guard let contains = keywords["contains"] else { return nil }
    let at = path + "/contains"
    // Why: an element that must itself hold a counted element is one the closing search
    // (the budget reserve) cannot always find in time among free values; refused, not risked.
    if contains["contains"] != nil { throw SchemaError.unsupportedKeyword("contains (nested contains)", path: at) }
    let minimum = try count(keywords, "minContains", path: path) ?? 1
    let maximum = try count(keywords, "maxContains", path: path)
    if minimum == 0 && maximum == nil { return nil }
    // The items as written: a tuple (`prefixItems`, or a draft-4..7 `items` array) and the rest.
    var prefix: [JSONValue] = []
    var rest: JSONValue = keywords["items"] ?? .bool(true)
    if case .array(let tuple)? = keywords["prefixItems"] { prefix = tuple }
    if case .array(let tuple)? = keywords["items"] {
      prefix = tuple
      rest = keywords["additionalItems"] ?? .bool(true)
    }
    let merging = SchemaMerging(document: document, path: at, options: options)
    func merged(_ item: JSONValue, _ with: JSONValue) throws -> SchemaNode {
      try lowerMerged(merging.merge([item, with]), path: at)
    }
    var other: JSONValue?
    if maximum != nil {
      do {
        other = try SchemaNegation(document: document, path: at).negate(contains)
      } catch SchemaError.unsupportedKeyword(let keyword, let where_) {
        throw SchemaError.unsupportedKeyword("maxContains (\(keyword))", path: where_)
      }
    }
    return ArrayConstraints.Contains(
      schema: try lower(contains, path: at), minimum: minimum, maximum: maximum,
      matchingPrefixItems: try prefix.map { try merged($0, contains) },
      matchingItems: array.items == nil ? nil : try merged(rest, contains),
      otherPrefixItems: try other.map { negated in try prefix.map { try merged($0, negated) } },
      otherItems: try other.flatMap { negated in array.items == nil ? nil : try merged(rest, negated) })
  }
}
