import Foundation

@testable import InferenceEngine

/// A `BatchDecoder` without llama.cpp, for tests of `BatchScheduler`'s thread: it records every
/// decode's rows and every removal and copy of cache cells, in order; keeps which positions each
/// sequence holds; writes logits that name the row (or candidate output) they came from; and
/// can hold decodes until the test lets them go, take a set time, or fail.
final class ScriptedBatchDecoder: BatchDecoder, @unchecked Sendable {
  /// What the scheduler asked for, in order.
  enum Event: Equatable {
    case decode(index: Int)
    case removal(sequence: Int32, from: Int)
    case copy(from: Int32, to: Int32)
    case save(sequence: Int32)
    case restore(sequence: Int32)
  }

  struct Decode: Equatable {
    var rows: [BatchRow]
    var skippingOutputLayer: Bool
  }

  let capacity: Int
  /// Guards everything below; waiters wait on it.
  private let condition = NSCondition()
  private var recordedDecodes: [Decode] = []
  private var recordedEvents: [Event] = []
  private var cells: [Int32: Set<Int>] = [:]
  /// Decodes with an index below this run; the others wait. nil: all run.
  private var allowed: Int?
  /// Statuses to return, by decode index, and how many of the failing decode's rows it keeps.
  private var failures: [Int: (status: Int32, keptRows: Int)] = [:]
  private var seconds = 0.0
  private var lastRows: [BatchRow] = []
  private var skipped = false
  private var finished = 0
  private var restoresFail = false

  init(capacity: Int) {
    self.capacity = capacity
  }

  // MARK: Script

  /// Decodes from the next one on wait until `allow(_:)` or `release()`.
  func hold() { condition.withLock { allowed = recordedDecodes.count } }

  /// Lets `count` more held decodes run.
  func allow(_ count: Int) {
    condition.withLock {
      allowed = (allowed ?? recordedDecodes.count) + count
      condition.broadcast()
    }
  }

  /// Lets every decode run from now on.
  func release() {
    condition.withLock {
      allowed = nil
      condition.broadcast()
    }
  }

  /// Decode `index` (counted from 0) returns `status`, keeping its first `keptRows` rows.
  func fail(decode index: Int, status: Int32, keptRows: Int = 0) {
    condition.withLock { failures[index] = (status, keptRows) }
  }

  /// Restores fail from now on, as llama.cpp's do when it cannot read what it is given.
  func failRestores() { condition.withLock { restoresFail = true } }

  /// How long each decode takes from now on.
  func takeSeconds(_ value: Double) { condition.withLock { seconds = value } }

  // MARK: Observation

  var decodes: [Decode] { condition.withLock { recordedDecodes } }
  var events: [Event] { condition.withLock { recordedEvents } }
  var finishedDecodes: Int { condition.withLock { finished } }

  /// The positions `sequence` holds.
  func positions(of sequence: Int32) -> Set<Int> { condition.withLock { cells[sequence] ?? [] } }

  /// Waits until `count` decodes have begun (held ones too).
  /// - Returns: false after 10 s without them.
  func waitForDecodes(_ count: Int) -> Bool {
    condition.withLock {
      let deadline = Date(timeIntervalSinceNow: 10)
      while recordedDecodes.count < count {
        if !condition.wait(until: deadline) { return recordedDecodes.count >= count }
      }
      return true
    }
  }

  // MARK: BatchDecoder

  func removeCells(of sequence: Int32, from position: Int) {
    condition.withLock {
      recordedEvents.append(.removal(sequence: sequence, from: position))
      cells[sequence] = cells[sequence]?.filter { $0 < position }
    }
  }

  func copyCells(of source: Int32, to destination: Int32) {
    condition.withLock {
      recordedEvents.append(.copy(from: source, to: destination))
      cells[destination] = cells[source]
    }
  }

  /// The positions a sequence holds, as bytes: four per position.
  func saveCells(of sequence: Int32) -> [UInt8]? {
    condition.withLock {
      recordedEvents.append(.save(sequence: sequence))
      return (cells[sequence] ?? []).sorted().flatMap { withUnsafeBytes(of: Int32($0).littleEndian, Array.init) }
    }
  }

  func restoreCells(_ saved: [UInt8], into sequence: Int32) -> Bool {
    condition.withLock {
      recordedEvents.append(.restore(sequence: sequence))
      guard !restoresFail else {
        cells[sequence] = []
        return false
      }
      cells[sequence] = Set(
        stride(from: 0, to: saved.count, by: 4).map { offset in
          Int(saved[offset..<offset + 4].reversed().reduce(Int32(0)) { $0 << 8 | Int32($1) })
        })
      return true
    }
  }

  func cachedCount(of sequence: Int32) -> Int {
    condition.withLock { (cells[sequence]?.max() ?? -1) + 1 }
  }

  func decode(_ rows: [BatchRow], skippingOutputLayer: Bool) -> Int32 {
    condition.lock()
    let index = recordedDecodes.count
    recordedDecodes.append(Decode(rows: rows, skippingOutputLayer: skippingOutputLayer))
    recordedEvents.append(.decode(index: index))
    condition.broadcast()
    while let allowed, index >= allowed { condition.wait() }
    let failure = failures[index]
    for row in rows.prefix(failure?.keptRows ?? rows.count) { cells[row.sequence, default: []].insert(row.position) }
    lastRows = rows
    skipped = skippingOutputLayer
    let seconds = self.seconds
    condition.unlock()
    if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    return failure?.status ?? 0
  }

  var skippedOutputLayer: Bool { condition.withLock { skipped } }

  /// Logits that say where they came from: the row's token, then the row.
  func copyLogits(ofRow row: Int, into buffer: UnsafeMutableBufferPointer<Float>) -> Bool {
    condition.withLock {
      guard row < lastRows.count, lastRows[row].output else { return false }
      buffer[0] = Float(lastRows[row].token)
      buffer[1] = Float(row)
      return true
    }
  }

  /// Logits that say where they came from: minus the first candidate, then the output.
  func copyLogits(of candidates: [Token], output: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
    buffer[0] = -Float(candidates.first ?? 0)
    buffer[1] = Float(output)
  }

  func finishedDecode() { condition.withLock { finished += 1 } }
}
