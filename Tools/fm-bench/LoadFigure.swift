import Foundation
import InferenceEngine

/// P10: model load to first token with a warm page cache, as whole processes: `fm-bench
/// load-child` (load, 8-token prompt, one token) against `llama-bench -p 8 -n 1` doing the same.
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

  /// The child process: the same work as the reference — load the model, evaluate an 8-token
  /// prompt, produce one token — through the shared model loader and an inference session.
  static func child(modelPath: String) async throws {
    let model = try await ModelLoader.model(at: modelPath)
    let session = InferenceSession(model: model)
    let prompt = Array(model.tokenize("The quick brown fox jumps over the lazy dog", parseSpecial: false).prefix(8))
    for try await _ in session.generate(GenerationRequest(promptTokens: prompt, maximumTokens: 1)) {}
  }
}
