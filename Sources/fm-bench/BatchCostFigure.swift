import Foundation
import InferenceEngine

/// Not a BENCHMARKS.md figure: what one forward pass costs by the number of tokens in it and
/// the number of logits read back, after a 200-token history. Decoding decisions (how many
/// forced or draft tokens to batch) rest on it: llama.cpp's CPU kernels work on rows in
/// groups, so some batches cost less than smaller ones.
struct BatchCostFigure {
  let model: LlamaModel
  let runs: Int

  func measure() throws {
    let backend = try model.makeBackend(ContextConfiguration(contextSize: 1024, threads: CPUTopology.physicalCores))
    let history = Array(
      model.tokenize(String(repeating: "The river keeps flowing past the old mill. ", count: 30), parseSpecial: false)
        .prefix(200))
    let flag = CancellationFlag()
    _ = try backend.evaluate(history[...], cancellation: flag)
    let extra = Array(model.tokenize("one two three four five six seven eight nine ten", parseSpecial: false).prefix(8))
    for size in 1...extra.count {
      for outputs in Set([1, min(size, 2)]).sorted() {
        var times = Measurements()
        for _ in 0..<max(runs, 1) {
          let start = DispatchTime.now()
          _ = try backend.evaluate(extra.prefix(size), outputs: outputs, cancellation: flag)
          times.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
          backend.truncateCache(to: history.count)
        }
        print("tokens \(size) outputs \(outputs): median \(Measurements.rounded(times.median)) ms")
      }
    }
  }
}
