/// Percentiles of timing samples.
struct Samples {
  private(set) var values: [Double] = []

  mutating func append(_ v: Double) { values.append(v) }

  func percentile(_ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let index = min(sorted.count - 1, Int((p / 100 * Double(sorted.count - 1)).rounded()))
    return sorted[index]
  }

  var max: Double { values.max() ?? 0 }
  var count: Int { values.count }
}

/// Elapsed time in seconds of `body`.
func measure<R>(_ body: () throws -> R) rethrows -> (R, Double) {
  let start = ContinuousClock.now
  let result = try body()
  let d = ContinuousClock.now - start
  return (result, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
}

/// One JSON object on one line, keys in the given order.
func jsonLine(_ pairs: [(String, Any)]) -> String {
  func encode(_ v: Any) -> String {
    switch v {
    case let s as String: return "\"" + s.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    case let d as Double: return d.isFinite ? String(format: "%.4g", d) : "null"
    case let i as Int: return String(i)
    case let pairs as [(String, Int)]: return "{" + pairs.map { "\(encode($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    default: return "null"
    }
  }
  return "{" + pairs.map { "\(encode($0.0)):\(encode($0.1))" }.joined(separator: ",") + "}"
}

import Foundation
