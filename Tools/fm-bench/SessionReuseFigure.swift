import Foundation
import FoundationModels
import InferenceEngine

/// P14: a session per request on a warm process.
///
/// Time to first token of a new session against a turn of a kept session that evaluates as many
/// tokens, and resident memory after 200 sequential one-shot sessions against after 20.
struct SessionReuseFigure {
  let modelPath: String
  let runs: Int

  var model: SystemLanguageModel { SystemLanguageModel(path: URL(fileURLWithPath: modelPath)) }
  let instructions = "You are a helpful assistant."
  let prompt = "In two words, what colour is the sky on a clear day?"
  let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 2)

  func measure() async throws -> FigureReport {
    let model = model
    // Warm: the model loaded and a context pooled, as in a process that has answered before.
    _ = try await oneShot(model)
    let kept = LanguageModelSession(model: model, instructions: instructions)
    _ = try await kept.respond(to: prompt, options: options)

    var fresh = Measurements()
    var turns = Measurements()
    var freshEvaluated: [Int] = []
    var turnEvaluated: [Int] = []
    // The kept session's prompt is the one-shot prompt padded with words, so that its turn
    // evaluates as many tokens as a new session's first request; each turn corrects the padding.
    var padding = 0
    for run in 0...max(runs, 5) {
      progress(run == 0 ? "P14 calibrating the kept session's prompt" : "P14 run \(run)/\(max(runs, 5))")
      let usage = try await oneShot(model)
      let keptPrompt = prompt + String(repeating: " x", count: max(0, padding))
      let turn = try await kept.respond(to: keptPrompt, options: options)
      let evaluated = (
        fresh: usage.inputTokens - usage.cachedInputTokens, turn: turn.inputTokens - turn.cachedInputTokens
      )
      padding += evaluated.fresh - evaluated.turn
      guard run > 0 else { continue }
      fresh.append(usage.figures.timeToFirstToken)
      freshEvaluated.append(evaluated.fresh)
      turns.append(turn.figures.timeToFirstToken)
      turnEvaluated.append(evaluated.turn)
    }

    // Read after malloc_trim: glibc's per-thread arenas keep freed memory in amounts that vary
    // from run to run, rising and falling, which hides whether memory in use grows.
    let loadsBefore = ModelLoader.loadCount(at: modelPath)
    var inUseAfter20 = 0
    for session in 1...200 {
      _ = try await oneShot(model)
      if session % 20 == 0 { progress("P14 one-shot sessions: \(session)/200") }
      if session == 20 { inUseAfter20 = ProcessMemory.residentBytesInUse() }
    }
    let residentAfter200 = ProcessMemory.residentBytes()
    let inUseAfter200 = ProcessMemory.residentBytesInUse()
    let growthMB = Double(inUseAfter200 - inUseAfter20) / 1_048_576
    let ratio = fresh.median / turns.median
    return FigureReport(
      id: "P14",
      figure:
        "time to first token of a new session on a warm process (reference: a turn of a kept session evaluating as many tokens)",
      unit: "seconds", ours: fresh, reference: turns, ratio: Measurements.rounded(ratio),
      target: "<= 1.2 (+ a pooled context's few ms); no memory growth over 200 sessions",
      pass: ratio <= 1.2 && growthMB < 8,
      notes: [
        "new_session_evaluated_tokens": "\(freshEvaluated)", "kept_turn_evaluated_tokens": "\(turnEvaluated)",
        "in_use_after_20_sessions_mb": "\(Measurements.rounded(Double(inUseAfter20) / 1_048_576))",
        "in_use_after_200_sessions_mb": "\(Measurements.rounded(Double(inUseAfter200) / 1_048_576))",
        "resident_after_200_sessions_before_trim_mb": "\(Measurements.rounded(Double(residentAfter200) / 1_048_576))",
        "growth_mb": "\(Measurements.rounded(growthMB))",
        "model_loads_during_200_sessions": "\(ModelLoader.loadCount(at: modelPath) - loadsBefore)",
      ])
  }

  /// Answers the prompt in a session of its own, which ends when this returns.
  private func oneShot(_ model: SystemLanguageModel) async throws -> LanguageModelSession.Response<String> {
    try await LanguageModelSession(model: model, instructions: instructions).respond(to: prompt, options: options)
  }
}
