import Synchronization

/// What a decode of the generating model costs by its number of rows, against a decode of one,
/// on this machine: drafts are as long as their expected tokens pay for
/// (`DraftPolicy.worthEvaluating`).
///
/// Why measured: what extra rows cost depends on the CPU and on the model's weight types. Where
/// llama.cpp's kernels read the weights once for a few rows, a decode of 16 rows costs a few
/// decodes of one; where arithmetic binds (few cores, no wide vector units), nearly as many as
/// its rows; and the kernels work on groups of rows, so a decode of some sizes costs less than
/// one of fewer rows.
///
/// Why measured once and kept, rather than learnt from each generation's decodes: a draft's
/// length decides which rows a decode evaluates together, and where rows evaluated together round
/// otherwise than a row alone (llama.cpp's plain attention kernel), it can decide a close greedy
/// choice. Costs that followed each run's timings would make a request's answer depend on the
/// machine's load at the time; a table fixed once keeps the drafts, and so the answer, a
/// function of the text. `LlamaModel.decodeCosts(threads:kernel:)` measures it before a model's
/// first speculative request, with a scratch context, and keeps it in the project's cache for
/// later processes.
public final class DecodeCosts: Sendable {
  /// What a table holds: the ratios by row count, and what a decode of one row took, in
  /// seconds, where it was measured (a draft model's guess costs its model's decode of one
  /// against the generating model's, `DraftPolicy.modelGuesses`).
  struct Table: Sendable, Equatable {
    var ratios: [Int: Double]
    var oneRowSeconds: Double?
  }

  /// What a row adds to a decode of one, in decodes of one, where a table has no cost for its
  /// row count (a known table's, or one whose measurement failed).
  static let presumedRowCost = 0.1

  /// The table, nil until measured.
  private let table: Mutex<Table?>
  private let measure: @Sendable () -> Table

  /// A table of known costs against a decode of one, by row count (as `fm-bench batches`
  /// prints them), and what a decode of one row takes where known; a row count it lacks is
  /// interpolated, or presumed cheap where it has none.
  public init(ratios: [Int: Double], oneRowSeconds: Double? = nil) {
    let known = Table(ratios: ratios, oneRowSeconds: oneRowSeconds)
    table = Mutex(known)
    measure = { known }
  }

  /// A table that `measure` fills the first time a cost is asked for: ratios by row count, from
  /// 1 to the most rows a decode evaluates, where ratios between two measured row counts are
  /// interpolated and those past the last grow in proportion to the rows.
  init(measuringWith measure: @escaping @Sendable () -> Table) {
    table = Mutex(nil)
    self.measure = measure
  }

  /// The table, measured now where it has not been yet (concurrent callers wait for one
  /// measurement).
  var measured: Table {
    table.withLock { table in
      if let table { return table }
      let measured = measure()
      table = measured
      return measured
    }
  }

  /// Whether the table holds its costs (known, or measured already).
  var isMeasured: Bool { table.withLock { $0 != nil } }

  /// What a decode of one row takes on this machine, in seconds, where measured.
  var oneRowSeconds: Double? { measured.oneRowSeconds }

  /// What a decode of `rows` rows costs against a decode of one.
  public func ratio(rows: Int) -> Double {
    guard rows > 1 else { return 1 }
    let ratios = measured.ratios
    if let known = ratios[rows] { return known }
    let below = ratios.keys.filter { $0 > 1 && $0 < rows }.max()
    let above = ratios.keys.filter { $0 > rows }.min()
    switch (below, above) {
    case (let below?, let above?):
      let share = Double(rows - below) / Double(above - below)
      return ratios[below]! + share * (ratios[above]! - ratios[below]!)
    case (let below?, nil):
      return ratios[below]! * Double(rows) / Double(below)
    default:
      return 1 + Self.presumedRowCost * Double(rows - 1)
    }
  }
}
