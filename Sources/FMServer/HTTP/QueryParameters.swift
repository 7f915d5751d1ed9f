import Foundation

/// A request's query (`a=1&b=two`), decoded; a name the route does not take is a 400.
struct QueryParameters {
  private var values: [String: String] = [:]

  /// - Throws: `APIError` for a name outside `allowed` or given twice.
  init(_ query: String?, allowed: Set<String>) throws {
    for pair in (query ?? "").split(separator: "&") where !pair.isEmpty {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
      let value = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
      guard allowed.contains(name) else {
        throw APIError.invalid("Unrecognized query parameter '\(name)'", param: name, code: "unknown_parameter")
      }
      guard values[name] == nil else { throw APIError.invalid("'\(name)' appears twice", param: name) }
      values[name] = value.removingPercentEncoding ?? value
    }
  }

  subscript(name: String) -> String? { values[name] }

  func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = values[name] else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw APIError.invalid(
        "'\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound)", param: name)
    }
    return value
  }
}
