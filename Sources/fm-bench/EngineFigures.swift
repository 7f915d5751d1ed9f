import Foundation
import InferenceEngine

/// P1, P2, P3, P8 and P10 of BENCHMARKS.md: the engine against llama.cpp's own tools and
/// against itself with the prefix cache disabled.
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

  /// P1: decode tokens/s, greedy, 128 tokens, against `llama-bench -n 128`.
  func decodeThroughput() async throws -> FigureReport {
    let reference = try LlamaBenchReference(modelPath: modelPath, threads: threads)
    let prompt = session().promptTokens(for: "Count from 1 to 500, separated by commas, without stopping.")
    var ours = Measurements()
    var theirs = Measurements()
    for run in 1...runs {
      progress("P1 run \(run)/\(runs)")
      let summary = try await generate(
        session(), GenerationRequest(promptTokens: prompt, sampling: .greedy, maximumTokens: 128))
      guard summary.usage.generatedTokens == 128 else {
        throw BenchError("P1 needs 128 generated tokens, the model stopped after \(summary.usage.generatedTokens)")
      }
      ours.append(summary.usage.decodeTokensPerSecond)
      theirs.append(try reference.tokensPerSecond(prompt: 0, generate: 128))
    }
    let ratio = ours.median / theirs.median
    return FigureReport(
      id: "P1", figure: "decode tokens/s, greedy, 128 tokens", unit: "tokens/s", ours: ours, reference: theirs,
      ratio: Measurements.rounded(ratio), target: ">= 0.95", pass: ratio >= 0.95)
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

  /// P3: time to first token of chat turns over a ~2,000-token history, with the prefix cache
  /// against the same turns re-evaluated from scratch (the cache cleared before each).
  func prefixCacheTimeToFirstToken() async throws -> FigureReport {
    var history: [ChatMessage] = [ChatMessage(role: .system, content: "You are a helpful assistant.")]
    let paragraph = String(repeating: "Rivers carry water from the mountains to the sea, shaping valleys and plains. ", count: 6)
    while model.tokenize(model.chatTemplate.render(history)).count < 2000 {
      history.append(ChatMessage(role: .user, content: "Tell me about rivers. \(paragraph)"))
      history.append(ChatMessage(role: .assistant, content: paragraph))
    }
    let historyTokens = model.tokenize(model.chatTemplate.render(history)).count
    let chat = session()
    var cached: [Int: Double] = [:]
    var cold = Measurements()
    var warm = Measurements()
    for turn in 1...20 {
      history.append(ChatMessage(role: .user, content: "Question \(turn): in one short sentence, why do rivers bend and meander over time?"))
      let request = GenerationRequest(promptTokens: chat.promptTokens(history), maximumTokens: 16)
      let summary = try await generate(chat, request)
      cached[turn] = summary.usage.timeToFirstTokenSeconds
      if turn > 1 { warm.append(summary.usage.timeToFirstTokenSeconds) }
      if turn == 2 || turn == 20 {
        progress("P3 turn \(turn): cold reference")
        let scratch = session()
        for _ in 0..<max(1, runs / 2) {
          try await scratch.clearCache()
          cold.append(try await generate(scratch, request).usage.timeToFirstTokenSeconds)
        }
      }
      let reply = model.detokenize(summary.tokens)
      history.append(ChatMessage(role: .assistant, content: reply))
    }
    let speedup = cold.median / warm.median
    let flatness = (cached[20] ?? 0) / max(cached[2] ?? 1, 1e-9)
    return FigureReport(
      id: "P3", figure: "time to first token, ~2,000-token history (reference: no prefix cache)",
      unit: "seconds", ours: warm, reference: cold, ratio: Measurements.rounded(speedup),
      target: ">= 10x faster; turn 20 within 1.2x of turn 2", pass: speedup >= 10 && flatness <= 1.2,
      notes: [
        "history_tokens": "\(historyTokens)", "turn2_seconds": "\(Measurements.rounded(cached[2] ?? 0))",
        "turn20_seconds": "\(Measurements.rounded(cached[20] ?? 0))", "turn20_over_turn2": "\(Measurements.rounded(flatness))",
      ])
  }

  /// P8: resident memory during a chat against model file size plus KV cache size.
  func memoryOverhead() async throws -> FigureReport {
    let contextSize = 4096
    let chat = session(contextSize: contextSize)
    var messages = [ChatMessage(role: .user, content: "Write a paragraph about the ocean.")]
    for _ in 1...3 {
      let summary = try await generate(chat, GenerationRequest(promptTokens: chat.promptTokens(messages), maximumTokens: 64))
      messages.append(ChatMessage(role: .assistant, content: model.detokenize(summary.tokens)))
      messages.append(ChatMessage(role: .user, content: "Go on."))
    }
    let resident = Double(ProcessMemory.residentBytes())
    let fileSize = Double((try? FileManager.default.attributesOfItem(atPath: modelPath)[.size] as? Int) ?? 0)
    let cache = Double(model.keyValueCacheBytes(contextSize: contextSize))
    let overheadMB = (resident - fileSize - cache) / 1_048_576
    var ours = Measurements()
    ours.append(resident / 1_048_576)
    var reference = Measurements()
    reference.append((fileSize + cache) / 1_048_576)
    return FigureReport(
      id: "P8", figure: "resident memory during chat (MB) vs model file + KV cache", unit: "MB", ours: ours,
      reference: reference, ratio: nil, target: "overhead < 64 MB", pass: overheadMB < 64,
      notes: ["overhead_mb": "\(Measurements.rounded(overheadMB))", "context_size": "\(contextSize)"])
  }
}

extension InferenceSession {
  /// One user message rendered with the model's template.
  func promptTokens(for text: String) -> [Token] {
    promptTokens([ChatMessage(role: .user, content: text)])
  }

  func promptTokens(_ messages: [ChatMessage]) -> [Token] {
    model.tokenize(model.chatTemplate.render(messages))
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
