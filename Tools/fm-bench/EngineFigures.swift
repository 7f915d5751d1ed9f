import Foundation
import InferenceEngine

/// P2 of BENCHMARKS.md, measured at the engine: prompt evaluation against llama-bench.
struct EngineFigures {
  let model: LlamaModel
  let modelPath: String
  let runs: Int
  let threads = CPUTopology.physicalCores

  func session(contextSize: Int = 4096) -> InferenceSession {
    InferenceSession(model: model, configuration: ContextConfiguration(contextSize: contextSize, threads: threads))
  }

  /// Generates to the end and returns the summary.
  func generate(_ session: InferenceSession, _ request: GenerationRequest) async throws -> GenerationSummary {
    for try await event in session.generate(request) {
      if case .finished(let summary) = event { return summary }
    }
    throw BenchError("generation ended without a summary")
  }

  /// P2: prompt evaluation tokens/s of a 512-token first turn, against `llama-bench -p 512`.
  ///
  /// llama-bench runs this test in a 512-token context, so the figure uses the smallest of ours
  /// that holds the prompt and a reply (1024). The same prompt in the default 4096-token context
  /// is reported beside it: llama.cpp's prefill is slower there.
  func prefillThroughput() async throws -> FigureReport {
    let reference = try LlamaBenchReference(modelPath: modelPath, threads: threads)
    let filler = String(
      repeating: "The quick brown fox jumps over the lazy dog while the river keeps flowing. ", count: 60)
    let prompt = Array(model.tokenize(filler, parseSpecial: false).prefix(512))
    let request = GenerationRequest(promptTokens: prompt, maximumTokens: 1)
    // Like llama-bench: one untimed warm-up run, then each timed run on an emptied cache.
    let matched = session(contextSize: 1024)
    let standard = session(contextSize: 4096)
    _ = try await generate(matched, request)
    _ = try await generate(standard, request)
    var ours = Measurements()
    var oursAt4096 = Measurements()
    var theirs = Measurements()
    for run in 1...runs {
      progress("P2 run \(run)/\(runs)")
      try await matched.clearCache()
      ours.append(try await generate(matched, request).usage.prefillTokensPerSecond)
      theirs.append(try reference.tokensPerSecond(prompt: 512, generate: 0))
      try await standard.clearCache()
      oursAt4096.append(try await generate(standard, request).usage.prefillTokensPerSecond)
    }
    let ratio = ours.median / theirs.median
    return FigureReport(
      id: "P2", figure: "prompt tokens/s, 512-token first turn", unit: "tokens/s", ours: ours, reference: theirs,
      ratio: Measurements.rounded(ratio), target: ">= 0.95", pass: ratio >= 0.95,
      notes: [
        "prompt_tokens": "\(prompt.count)", "context_size": "1024",
        "ours_in_4096_context_median": "\(Measurements.rounded(oursAt4096.median))",
        "ratio_in_4096_context": "\(Measurements.rounded(oursAt4096.median / theirs.median))",
      ])
  }
}
