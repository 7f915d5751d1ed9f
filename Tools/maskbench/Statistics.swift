import Foundation

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
  var mean: Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
}

/// CPU time in seconds that this thread spent in `body`.
///
/// Why CPU time rather than wall time: the benchmark machines are shared (load above the
/// core count is common), and a descheduled thread would otherwise show up as a slow mask.
func measure<R>(_ body: () throws -> R) rethrows -> (R, Double) {
  let start = threadCPUTime()
  let result = try body()
  return (result, threadCPUTime() - start)
}

private func threadCPUTime() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
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
