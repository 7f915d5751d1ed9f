import Foundation
import InferenceEngine

/// Not a BENCHMARKS.md figure: what creating a context costs, and what one forward pass costs
/// by the number of tokens in it and the logits read back (one, two, or ten tokens' without the
/// output layer), after a 200-token history.
///
/// Decoding decisions (how many forced or draft tokens to batch, whether to keep contexts) rest on
/// it: llama.cpp's CPU kernels work on rows in groups, so some batches cost less than smaller ones.
struct BatchCostFigure {
  let model: LlamaModel
  let runs: Int

  func measure() throws {
    // All held at once, so that none is an ended session's context served again by the model.
    var created: [any TokenBackend] = []
    for _ in 0..<3 {
      let start = DispatchTime.now()
      let backend = try model.makeBackend(ContextConfiguration(contextSize: 4096, threads: CPUTopology.physicalCores))
      _ = try backend.evaluate([1][...], cancellation: CancellationFlag())
      print("context creation and one decode: \(Measurements.rounded(elapsed(since: start) * 1000)) ms")
      created.append(backend)
    }
    created.removeAll()
    let backend = try model.makeBackend(ContextConfiguration(contextSize: 1024, threads: CPUTopology.physicalCores))
    let history = Array(
      model.tokenize(String(repeating: "The river keeps flowing past the old mill. ", count: 30), parseSpecial: false)
        .prefix(200))
    _ = try backend.evaluate(history[...], cancellation: CancellationFlag())
    let extra = Array(model.tokenize("one two three four five six seven eight nine ten", parseSpecial: false).prefix(8))
    try measureDrafts(on: backend, after: history)
    // Ten candidates, as after a digit: the output layer is skipped.
    let digits = (0..<10).map { model.tokenize("\($0)", parseSpecial: false)[0] }
    for size in 1...extra.count {
      for (outputs, candidates) in [(1, nil), (1, [digits]), (min(size, 2), nil)] {
        let times = try milliseconds(
          evaluating: extra.prefix(size), outputs: outputs, candidates: candidates, on: backend, after: history)
        let what = candidates == nil ? "outputs \(outputs)" : "10 candidate logits"
        print("tokens \(size) \(what): median \(Measurements.rounded(times.median)) ms")
      }
    }
  }

  /// What a sampled token with its drafts costs: a decode of 1 to 32 tokens with the logits of
  /// every one (each is verified), against a decode of one; `DraftPolicy` rests on it.
  private func measureDrafts(on backend: any TokenBackend, after history: [Token]) throws {
    let tokens = Array(
      model.tokenize(String(repeating: "a b c d e f g h ", count: 8), parseSpecial: false).prefix(
        backend.draftTokenLimit + 1))
    var single = 0.0
    for size in 1...tokens.count {
      let times = try milliseconds(
        evaluating: tokens.prefix(size), outputs: size, candidates: nil, on: backend, after: history)
      if size == 1 { single = times.median }
      print(
        "draft rows \(size - 1), every logit: median \(Measurements.rounded(times.median)) ms, \(Measurements.rounded(times.median / single)) × one token"
      )
    }
  }

  /// Milliseconds of `runs` evaluations of `tokens` after `history`, each cut back to it after.
  private func milliseconds(
    evaluating tokens: ArraySlice<Token>, outputs: Int, candidates: [[Token]]?, on backend: any TokenBackend,
    after history: [Token]
  ) throws -> Measurements {
    var times = Measurements()
    for _ in 0..<max(runs, 1) {
      let start = DispatchTime.now()
      _ = try backend.evaluate(tokens, outputs: outputs, candidates: candidates, cancellation: CancellationFlag())
      times.append(elapsed(since: start) * 1000)
      backend.truncateCache(to: history.count)
    }
    return times
  }
}
