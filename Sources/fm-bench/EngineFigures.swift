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
  func prefillThroughput() async throws -> FigureReport {
    let reference = try LlamaBenchReference(modelPath: modelPath, threads: threads)
    let filler = String(repeating: "The quick brown fox jumps over the lazy dog while the river keeps flowing. ", count: 60)
    let prompt = Array(model.tokenize(filler, parseSpecial: false).prefix(512))
    var ours = Measurements()
    var theirs = Measurements()
    for run in 1...runs {
      progress("P2 run \(run)/\(runs)")
      let summary = try await generate(session(), GenerationRequest(promptTokens: prompt, maximumTokens: 1))
      ours.append(summary.usage.prefillTokensPerSecond)
      theirs.append(try reference.tokensPerSecond(prompt: 512, generate: 0))
    }
    let ratio = ours.median / theirs.median
    return FigureReport(
      id: "P2", figure: "prompt tokens/s, 512-token first turn", unit: "tokens/s", ours: ours, reference: theirs,
      ratio: Measurements.rounded(ratio), target: ">= 0.95", pass: ratio >= 0.95,
      notes: ["prompt_tokens": "\(prompt.count)"])
  }

}

/// Reads the process's memory figures from /proc.
enum ProcessMemory {
  static func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
      return kilobytes * 1024
    }
    return 0
  }
}
