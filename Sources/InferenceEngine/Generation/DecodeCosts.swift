import Synchronization

/// What a decode of the generating model costs by its number of rows, against a decode of one,
/// measured on this machine as generations run: the driver times each evaluation after the
/// first token (`Generator`), and drafts are as long as their expected tokens pay for
/// (`DraftPolicy.worthEvaluating`).
///
/// Why measured: what extra rows cost depends on the CPU and on the model's weight types. Where
/// llama.cpp's kernels read the weights once for a few rows, a decode of 16 rows costs a few
/// decodes of one; where arithmetic binds (few cores, no wide vector units), nearly as many as
/// its rows; and the kernels work on groups of rows, so a decode of some sizes costs less than
/// one of fewer rows. One table is shared by every generation on a model with the same threads
/// and kernel (`LlamaModel.decodeCosts(threads:kernel:replacingWith:)`), so later requests
/// start with what earlier ones measured.
///
/// A row count not measured yet is presumed cheap (`presumedRowCost`): the drafts that want it
/// try it, and from then on its measurement counts. Each row count keeps its last few times and
/// takes their median, so a decode slowed by another process weighs little, and the times follow
/// the cache as it grows.
public final class DecodeCosts: Sendable {
  /// The times kept per row count.
  static let kept = 5
  /// The largest decode measured: a sampled token, its drafts and a padding row.
  static let largest = 64
  /// What a row adds to a decode of one, in decodes of one, until its row count is measured.
  static let presumedRowCost = 0.1

  private let times = Mutex<[Int: [Double]]>([:])
  /// Costs known beforehand, by row count; nil for a table that measures.
  private let known: [Int: Double]?

  /// A table that learns the costs from the decodes recorded.
  public init() {
    known = nil
  }

  /// A table of known costs against a decode of one, by row count (as `fm-bench batches`
  /// prints them), that recordings leave as they are; a row count it lacks is presumed cheap.
  public init(ratios: [Int: Double]) {
    known = ratios
  }

  /// Records that a decode of `rows` rows took `seconds`.
  public func record(rows: Int, seconds: Double) {
    guard known == nil, rows > 0, rows <= Self.largest, seconds > 0, seconds.isFinite else { return }
    times.withLock { times in
      var kept = times[rows, default: []]
      kept.append(seconds)
      if kept.count > Self.kept { kept.removeFirst() }
      times[rows] = kept
    }
  }

  /// What a decode of `rows` rows costs against a decode of one: measured where both are, and
  /// `1 + presumedRowCost × (rows − 1)` where either is not.
  public func ratio(rows: Int) -> Double {
    guard rows > 1 else { return 1 }
    let presumed = 1 + Self.presumedRowCost * Double(rows - 1)
    if let known { return known[rows] ?? presumed }
    return times.withLock { times in
      guard let one = times[1].map(Self.median), let many = times[rows].map(Self.median), one > 0 else {
        return presumed
      }
      return many / one
    }
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }
}
