import Foundation

/// Repeated measurements of one figure, summarised as min / median / max.
struct Measurements: Encodable {
  var values: [Double] = []

  var min: Double { values.min() ?? 0 }
  var max: Double { values.max() ?? 0 }
  var median: Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  mutating func append(_ value: Double) { values.append(value) }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(Self.rounded(min), forKey: .min)
    try container.encode(Self.rounded(median), forKey: .median)
    try container.encode(Self.rounded(max), forKey: .max)
  }

  private enum Keys: String, CodingKey { case min, median, max }

  static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

/// One benchmark result: our figure against its reference in the same run.
struct FigureReport: Encodable {
  var id: String
  var figure: String
  var unit: String
  var ours: Measurements
  var reference: Measurements?
  /// ours / reference on medians (or reference / ours where lower is better, said in `figure`).
  var ratio: Double?
  var target: String
  var pass: Bool
  var notes: [String: String] = [:]

  func print() {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    if let data = try? encoder.encode(self) {
      FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
  }
}

/// The `fraction` percentile of `values` (nearest rank), 0 when there are none.
func percentile(_ values: [Double], _ fraction: Double) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return 0 }
  let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// Seconds since `start`.
func elapsed(since start: DispatchTime) -> Double {
  Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Progress for a human watching; stdout stays machine-readable.
func progress(_ message: String) {
  FileHandle.standardError.write(Data("  · \(message)\n".utf8))
}
