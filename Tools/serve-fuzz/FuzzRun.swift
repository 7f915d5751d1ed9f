import FMTestSupport
import Foundation

/// Sends malformed requests to a running `fm serve` from several connections at once and
/// counts the answers by status, the requests answered by a closed connection alone, the
/// hangs (no answer within the client's timeout) and crashes (the server stops accepting).
struct FuzzRun {
  let port: Int
  let model: String
  let count: Int
  let seed: UInt64
  let connections: Int
  /// Seconds a request may go unanswered before it counts as a hang (beyond the server's
  /// 30-second read timeout, which answers an incomplete request with 408).
  let timeout = 45.0

  struct Tally: Sendable {
    var statuses: [Int: Int] = [:]
    var statusesOfPossiblyValid: [Int: Int] = [:]
    var closedWithoutAnswer = 0
    var hangs = 0
    var crashed = false
    var kinds: [String: Int] = [:]
    var non4xxExamples: [String] = []
  }

  func run() async -> Tally {
    let tally = Locked(Tally())
    var mutator = RequestMutator(model: model, seed: seed)
    let cases = (0..<count).map { _ in mutator.next() }
    let next = Locked(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<connections {
        group.addTask {
          _ = try? await onThread {
            while true {
              let index = next.withLock { value -> Int in
                defer { value += 1 }
                return value
              }
              guard index < cases.count, !tally.withLock({ $0.crashed }) else { return }
              let outcome = send(cases[index])
              tally.withLock { tally in
                let fuzzCase = cases[index]
                tally.kinds[fuzzCase.kind, default: 0] += 1
                switch outcome {
                case .status(let status):
                  if fuzzCase.certainlyMalformed {
                    tally.statuses[status, default: 0] += 1
                    if !(400..<500).contains(status), tally.non4xxExamples.count < 10 {
                      tally.non4xxExamples.append(
                        "\(status) \(fuzzCase.kind): \(String(decoding: fuzzCase.bytes.prefix(300), as: UTF8.self))")
                    }
                  } else {
                    tally.statusesOfPossiblyValid[status, default: 0] += 1
                  }
                case .closed: tally.closedWithoutAnswer += 1
                case .hang: tally.hangs += 1
                case .refused: tally.crashed = true
                }
              }
            }
          }
        }
      }
    }
    var result = tally.withLock { $0 }
    if !result.crashed {
      let health = try? await RawHTTPConnection.exchange("GET /health HTTP/1.1\r\n\r\n", port: port)
      result.crashed = health?.status != 200
    }
    return result
  }

  enum Outcome {
    case status(Int)
    case closed
    case hang
    case refused
  }

  private func send(_ fuzzCase: RequestMutator.Case) -> Outcome {
    guard let connection = try? RawHTTPConnection(port: port, timeout: timeout) else { return .refused }
    // The server may answer and close before reading all of an oversized request.
    try? connection.send(fuzzCase.bytes)
    let started = Date()
    do {
      return .status(try connection.readResponse().status)
    } catch {
      return Date().timeIntervalSince(started) >= timeout - 1 ? .hang : .closed
    }
  }
}
