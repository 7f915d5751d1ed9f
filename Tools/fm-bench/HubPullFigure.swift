import FMTestSupport
import Foundation
import ModelStore
import Synchronization

/// `fm-bench hf-pull`: pulling a model from a Hub, against `curl` fetching the same file from
/// the same loopback server (`LocalHubServer`), and the bytes fetched twice when the
/// connection drops halfway.
///
/// Ours is the download: from the file list to the last byte, the moment the pull reports
/// `.verifying`; the whole pull, with the sha256 check and the rename, is in the notes. Runs
/// alternate between the two.
struct HubPullFigure {
  /// The size of the file pulled.
  let byteCount: Int
  let runs: Int

  func measure() async throws -> FigureReport {
    progress("hf-pull: hashing a \(byteCount / 1_000_000) MB file for the server")
    let file = Data((0..<byteCount).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ ($0 >> 12)) })
    let repository = ["bench-model-Q4_K_M.gguf": file]
    let server = try LocalHubServer(repositories: ["bench/model-GGUF": repository])
    defer { server.stop() }
    let reference = HubReference(owner: "bench", repository: "model-GGUF")
    let url = "\(server.baseURL.absoluteString)/bench/model-GGUF/resolve/main/bench-model-Q4_K_M.gguf"
    var ours = Measurements()
    var downloadOnly = Measurements()
    var theirs = Measurements()
    for run in 1...runs {
      progress("hf-pull run \(run)/\(runs)")
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let store = ModelStore(directory: directory.url, hub: HubSettings(endpoint: server.baseURL.absoluteString))
      let verifying = VerificationClock()
      let start = DispatchTime.now()
      try await store.pull(reference) { if $0 == .verifying { verifying.mark() } }
      let seconds = elapsed(since: start)
      ours.append(Double(byteCount) / seconds / 1e6)
      downloadOnly.append(Double(byteCount) / verifying.seconds(since: start) / 1e6)
      let target = directory.url.appendingPathComponent("curl.gguf").path
      let curlStart = DispatchTime.now()
      _ = try runProcess("/usr/bin/env", ["curl", "--silent", "--fail", "--location", "--output", target, url])
      theirs.append(Double(byteCount) / elapsed(since: curlStart) / 1e6)
    }
    let refetched = try await refetchedAfterDrop(repository: repository, reference: reference)
    let ratio = downloadOnly.median / theirs.median
    let summary = { (values: Measurements) in
      "\(Measurements.rounded(values.min))/\(Measurements.rounded(values.median))/\(Measurements.rounded(values.max))"
    }
    return FigureReport(
      id: "HF1", figure: "hf: download throughput, list to last byte (ours / curl of the same file)",
      unit: "MB/s", ours: downloadOnly, reference: theirs, ratio: Measurements.rounded(ratio), target: ">= 0.9",
      pass: ratio >= 0.9,
      notes: [
        "file": "\(byteCount) bytes from LocalHubServer on loopback",
        "whole pull with the sha256 check, MB/s (min/median/max)": summary(ours),
        "whole pull / curl": "\(Measurements.rounded(ours.median / theirs.median))",
        "bytes fetched again after a drop at half the file": "\(refetched)",
      ])
  }

  /// Pulls once from a server that cuts the first body at half the file; returns the bytes
  /// the server sent beyond the file's size.
  private func refetchedAfterDrop(repository: [String: Data], reference: HubReference) async throws -> Int {
    let server = try LocalHubServer(
      repositories: ["bench/model-GGUF": repository], behaviour: .init(dropFirstBodyAfter: byteCount / 2))
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = ModelStore(directory: directory.url, hub: HubSettings(endpoint: server.baseURL.absoluteString))
    try await store.pull(reference)
    return server.fileBytesSent - byteCount
  }
}

/// When a pull reported `.verifying`: the end of its download.
private final class VerificationClock: Sendable {
  private let time = Mutex<DispatchTime?>(nil)

  func mark() { time.withLock { $0 = DispatchTime.now() } }

  func seconds(since start: DispatchTime) -> Double {
    guard let end = time.withLock({ $0 }) else { return .infinity }
    return Double(end.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  }
}
