import Foundation

extension LlamaModel {
  /// What decodes cost on contexts of `threads` threads with `kernel`, one table shared by all
  /// of them (`DecodeCosts`), measured before it is first used, or read from `file` where a
  /// process on this machine and llama.cpp build measured it for a model of the same kind
  /// (architecture, size, weight types) before; `table` in place of every table where given (a
  /// test's known costs).
  func decodeCosts(
    threads: Int, kernel: AttentionKernel, replacingWith table: DecodeCosts? = nil,
    file: MeasurementFile? = .named("decode-costs")
  ) -> DecodeCosts {
    costTables.withLock { tables in
      if let table { tables[Self.everyContext] = table }
      if let known = tables[Self.everyContext] { return known }
      let key = "\(threads) \(kernel.rawValue)"
      if let table = tables[key] { return table }
      // Weak: the model holds the table.
      let table = DecodeCosts { [weak self] in
        self?.measuredDecodeCosts(threads: threads, kernel: kernel, file: file) ?? DecodeCosts.Table(ratios: [:])
      }
      tables[key] = table
      return table
    }
  }
  private static let everyContext = "*"

  /// Whether what decodes cost on contexts of `threads` threads (with the attention kernel
  /// they use) is known: measured in this process, or kept by an earlier one.
  public func decodeCostsAreKnown(threads: Int, file: MeasurementFile? = .named("decode-costs")) -> Bool {
    let kernel = AttentionKernel.measured(for: attentionShape, threads: threads)
    if decodeCosts(threads: threads, kernel: kernel, file: file).isMeasured { return true }
    let key = decodeCostKey(threads: threads, kernel: kernel)
    return file?.values()[key].flatMap(Self.decodeCosts(from:)) != nil
  }

  /// Measures what decodes cost on contexts of `threads` threads now, or reads it where an
  /// earlier process kept it, as the model's first speculative request would: for a caller that
  /// shows progress meanwhile (`fm`).
  public func measureDecodeCosts(threads: Int) {
    _ = decodeCosts(threads: threads, kernel: AttentionKernel.measured(for: attentionShape, threads: threads)).measured
  }

  /// What a measurement holds for: the model's kind (its description and size), the threads
  /// and the kernel, on this machine and llama.cpp build.
  private func decodeCostKey(threads: Int, kernel: AttentionKernel) -> String {
    MeasurementFile.key("\(description), \(weightBytes) bytes, \(threads) threads, \(kernel.rawValue)")
  }

  /// The row counts measured: every one up to a copied span's draft with its sampled token and
  /// a forced token before them, then a few up to the most rows a decode evaluates
  /// (`LlamaTokenBackend.outputLimit`); `DecodeCosts` interpolates between them.
  static let measuredRows = Array(1...17) + [20, 24, 28, LlamaTokenBackend.outputLimit]

  /// Decodes of each of `measuredRows` rows timed after a 200-token history on a scratch
  /// context, as ratios to a decode of one, kept in `file`. On a small model this takes a
  /// fraction of a second, on a 1.5B model on two slow cores some seconds, once.
  ///
  /// Another process slows a timing, never speeds it, so each row count's fastest timing counts,
  /// and the row counts are timed in turn, pass after pass, until each one's two fastest agree
  /// (within `agreement`, in proportion). Where they still do not after `maximumPasses` (a machine under changing
  /// load), the table serves this process but is not kept: the next measures again. Where no
  /// scratch context can be made, none (every row presumed cheap), and nothing is kept.
  func measuredDecodeCosts(
    threads: Int, kernel: AttentionKernel, file: MeasurementFile?, agreement: Double = agreement
  ) -> DecodeCosts.Table {
    let key = decodeCostKey(threads: threads, kernel: kernel)
    if let stored = file?.values()[key].flatMap(Self.decodeCosts(from:)) { return stored }
    let rows = Self.measuredRows
    guard
      let backend = try? LlamaTokenBackend(
        model: self, configuration: ContextConfiguration(contextSize: 512, threads: threads, attentionKernel: kernel),
        pooled: false)
    else { return DecodeCosts.Table(ratios: [:]) }
    let text = String(
      repeating: "The river keeps flowing past the old mill, and the miller counts the sacks. ", count: 40)
    let tokens = tokenize(text, parseSpecial: false)
    let history = tokens.prefix(200)
    let flag = CancellationFlag()
    guard tokens.count >= history.count + rows.last!, (try? backend.evaluate(history, cancellation: flag)) != nil else {
      return DecodeCosts.Table(ratios: [:])
    }
    var timings = [[Double]](repeating: [], count: rows.count)
    var agreed = false
    for _ in 0..<Self.maximumPasses where !agreed {
      for (index, count) in rows.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        guard
          (try? backend.evaluate(tokens[200..<200 + count], outputs: count, candidates: nil, cancellation: flag)) != nil
        else { return DecodeCosts.Table(ratios: [:]) }
        timings[index].append(Double(DispatchTime.now().uptimeNanoseconds - start))
        backend.truncateCache(to: history.count)
      }
      agreed = timings.allSatisfy { times in
        let fastest = times.sorted()
        return fastest.count >= 2 && fastest[1] <= fastest[0] * agreement
      }
    }
    let fastest = timings.map { $0.min()! }
    let table = DecodeCosts.Table(
      ratios: Dictionary(uniqueKeysWithValues: zip(rows, fastest.map { $0 / fastest[0] })),
      oneRowSeconds: fastest[0] / 1e9)
    if agreed { file?.append(Self.line(of: table), for: key) }
    return table
  }

  /// The most passes over the row counts a measurement makes, and how close each row count's
  /// two fastest timings must be for the measurement to be kept.
  static let maximumPasses = 5
  static let agreement = 1.1

  /// A table as a line of `file`: what a decode of one row takes (`s:seconds`), then
  /// `rows:ratio` pairs.
  static func line(of table: DecodeCosts.Table) -> String {
    let ratios = table.ratios.sorted { $0.key < $1.key }.map { "\($0.key):\(($0.value * 1000).rounded() / 1000)" }
    return (["s:\(table.oneRowSeconds ?? 0)"] + ratios).joined(separator: " ")
  }

  /// The table of a line of `file`; nil for a line that is not a full table.
  static func decodeCosts(from line: String) -> DecodeCosts.Table? {
    var table = DecodeCosts.Table(ratios: [:])
    for pair in line.split(separator: " ") {
      let fields = pair.split(separator: ":")
      guard fields.count == 2, let value = Double(fields[1]), value.isFinite, value > 0 else { return nil }
      if fields[0] == "s" {
        table.oneRowSeconds = value
      } else if let rows = Int(fields[0]) {
        table.ratios[rows] = value
      } else {
        return nil
      }
    }
    return Set(table.ratios.keys) == Set(measuredRows) && table.oneRowSeconds != nil ? table : nil
  }
}
