import Foundation
import FoundationModels
import InferenceEngine

/// P10: model load to first token with a warm page cache, as whole processes: `fm-bench
/// load-child` (a session answering "Hi" with one token) against `llama-bench -p 8 -n 1` doing the same.
struct LoadFigure {
  let modelPath: String
  let runs: Int

  func measure() throws -> FigureReport {
    let reference = try LlamaBenchReference(modelPath: modelPath, threads: CPUTopology.physicalCores)
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
    _ = try reference.loadToFirstTokenSeconds()  // warms the page cache
    var ours = Measurements()
    var theirs = Measurements()
    for run in 1...runs {
      progress("P10 run \(run)/\(runs)")
      let start = DispatchTime.now()
      _ = try runProcess(me, ["load-child", "--model", modelPath])
      ours.append(elapsed(since: start))
      theirs.append(try reference.loadToFirstTokenSeconds())
    }
    let ratio = ours.median / theirs.median
    return FigureReport(
      id: "P10", figure: "model load to first token, whole process, warm page cache (ours / llama-bench)",
      unit: "seconds", ours: ours, reference: theirs, ratio: Measurements.rounded(ratio), target: "<= 1.1",
      pass: ratio <= 1.1)
  }

  /// The child process: a session on the model answers a short prompt with one token, the
  /// path an app takes from launch to its first token.
  static func child(modelPath: String) async throws {
    let session = LanguageModelSession(model: SystemLanguageModel(path: URL(fileURLWithPath: modelPath)))
    try await session.respond(to: "Hi", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 1))
  }
}
