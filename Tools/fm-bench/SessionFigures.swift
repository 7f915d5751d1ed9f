import Foundation
import FoundationModels
import InferenceEngine

/// The figures measured through the public API, the way an app sees them: P1 decode speed
/// through `streamResponse`, P3 time to first token of chat turns, P8 memory during a chat.
struct SessionFigures {
  let modelPath: String
  let runs: Int
  /// A chat template in place of the model's own (`--chat-template-file`; a base model has none).
  var chatTemplate: String? = nil
  let threads = CPUTopology.physicalCores

  /// Without speculation: P1 compares one stream's decoding with llama-bench's, token by token
  /// (a counting prompt or a base model's loop is what prompt lookup guesses best; P15 measures
  /// speculation).
  var model: SystemLanguageModel {
    SystemLanguageModel(path: URL(fileURLWithPath: modelPath), chatTemplate: chatTemplate, speculation: .off)
  }

  /// P1: tokens/s between the first and the last snapshot of a greedy 128-token stream,
  /// against `llama-bench -n 128`.
  func decodeThroughput() async throws -> FigureReport {
    let reference = try LlamaBenchReference(modelPath: modelPath, threads: threads)
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 128)
    var ours = Measurements()
    var theirs = Measurements()
    // Prompts that make a small model talk for a while; the first that gives 128 tokens counts.
    let prompts = [
      "Count from 1 to 500, separated by commas, without stopping.",
      "Write a long story about a lighthouse keeper and a storm.",
    ]
    var promptIndex = 0
    var run = 0
    while run < runs {
      run += 1
      progress("P1 run \(run)/\(runs)")
      let session = LanguageModelSession(model: model)
      let stream = session.streamResponse(to: prompts[promptIndex], options: options)
      var first: DispatchTime?
      for try await _ in stream where first == nil { first = .now() }
      let seconds = elapsed(since: first ?? .now())
      let response = try await stream.collect()
      guard response.outputTokens == 128 else {
        guard promptIndex + 1 < prompts.count else {
          throw BenchError("P1 needs 128 generated tokens, the model stopped after \(response.outputTokens)")
        }
        promptIndex += 1
        run -= 1
        continue
      }
      ours.append(Double(response.outputTokens - 1) / seconds)
      theirs.append(try reference.tokensPerSecond(prompt: 0, generate: 128))
    }
    let ratio = ours.median / theirs.median
    return FigureReport(
      id: "P1", figure: "decode tokens/s through LanguageModelSession.streamResponse, greedy, 128 tokens",
      unit: "tokens/s", ours: ours, reference: theirs, ratio: Measurements.rounded(ratio), target: ">= 0.95",
      pass: ratio >= 0.95)
  }

  /// P3: time to first token of turns in a chat with a ~2,000-token history, against the same
  /// turn answered by a new session built from the transcript (what peers do every turn:
  /// evaluate the whole conversation again).
  func prefixCacheTimeToFirstToken() async throws -> FigureReport {
    let entries = try await history(ofAtLeast: 2000)
    let historyTokens = try await model.tokenCount(for: entries)
    let chat = LanguageModelSession(model: model, transcript: Transcript(entries: entries))
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 16)
    var perTurn: [Int: Double] = [:]
    var evaluated: [Int: Int] = [:]
    var cached: [Int: Int] = [:]
    var warm = Measurements()
    var cold = Measurements()
    for turn in 1...20 {
      let prompt = "Question \(turn): in one short sentence, why do rivers bend and meander over time?"
      if turn == 2 || turn == 20 {
        progress("P3 turn \(turn): reference without the prefix cache")
        for _ in 0..<max(1, runs / 2) {
          let fresh = LanguageModelSession(model: model, transcript: chat.transcript)
          cold.append(try await fresh.respond(to: prompt, options: options).figures.timeToFirstToken)
        }
      }
      let usage = try await chat.respond(to: prompt, options: options)
      perTurn[turn] = usage.figures.timeToFirstToken
      evaluated[turn] = usage.inputTokens - usage.cachedInputTokens
      cached[turn] = usage.cachedInputTokens
      progress(
        "P3 turn \(turn): \(usage.inputTokens) input tokens, \(evaluated[turn] ?? 0) evaluated, TTFT \(usage.figures.timeToFirstToken) s"
      )
      if turn > 1 { warm.append(usage.figures.timeToFirstToken) }
    }
    let speedup = cold.median / warm.median
    // Single turns are noisy on a shared machine: compare turns 2-4 with turns 18-20.
    let early = Measurements(values: (2...4).compactMap { perTurn[$0] })
    let late = Measurements(values: (18...20).compactMap { perTurn[$0] })
    let flatness = late.median / max(early.median, 1e-9)
    // The same work for llama.cpp alone: the new tokens of turn 3 and of turn 19 evaluated
    // after that turn's history. Attention over a longer history costs more whoever runs it.
    progress("P3 reference growth: llama-bench at the depths of turns 3 and 19")
    let reference = try LlamaBenchReference(modelPath: modelPath, threads: threads)
    let referenceEarly = try reference.tokensPerSecond(prompt: evaluated[3] ?? 30, generate: 0, depth: cached[3] ?? 0)
    let referenceLate = try reference.tokensPerSecond(prompt: evaluated[19] ?? 30, generate: 0, depth: cached[19] ?? 0)
    let referenceGrowth = (Double(evaluated[19] ?? 30) / referenceLate) / (Double(evaluated[3] ?? 30) / referenceEarly)
    return FigureReport(
      id: "P3", figure: "time to first token, ~2,000-token history (reference: a new session from the transcript)",
      unit: "seconds", ours: warm, reference: cold, ratio: Measurements.rounded(speedup),
      target: ">= 10x faster; turns 18-20 within 1.2x of turns 2-4", pass: speedup >= 10 && flatness <= 1.2,
      notes: [
        "history_tokens": "\(historyTokens)", "turns2to4_median_seconds": "\(Measurements.rounded(early.median))",
        "turns18to20_median_seconds": "\(Measurements.rounded(late.median))",
        "late_over_early": "\(Measurements.rounded(flatness))",
        "llama_bench_late_over_early": "\(Measurements.rounded(referenceGrowth))",
        "history_tokens_turn3": "\(cached[3] ?? 0)", "history_tokens_turn19": "\(cached[19] ?? 0)",
        "evaluated_tokens_turn2": "\(evaluated[2] ?? 0)", "evaluated_tokens_turn20": "\(evaluated[20] ?? 0)",
      ])
  }

  /// A chat transcript of instructions and `pairs` prompt/response pairs about `subject`,
  /// every message different.
  private func history(pairs: Int, subject: String = "Rivers") -> [Transcript.Entry] {
    var entries: [Transcript.Entry] = [
      .instructions(.init(segments: [.text(.init(content: "You are a helpful assistant."))], toolDefinitions: []))
    ]
    for pair in 0..<pairs {
      let paragraph = String(
        repeating: "\(subject) carry water from the mountains to the sea, shaping valleys and plains (\(pair)). ",
        count: 6)
      entries.append(.prompt(.init(segments: [.text(.init(content: "Tell me about \(subject). \(paragraph)"))])))
      entries.append(.response(.init(assetIDs: [], segments: [.text(.init(content: paragraph))])))
    }
    return entries
  }

  /// The shortest such transcript at least `tokens` long as the model counts it.
  private func history(ofAtLeast tokens: Int) async throws -> [Transcript.Entry] {
    var pairs = 0
    while try await model.tokenCount(for: history(pairs: pairs)) < tokens { pairs += 1 }
    return history(pairs: pairs)
  }

  /// P9: `tokenCount(for:)` on a ~4,000-token transcript (the model already loaded), in ms:
  /// asked again about a transcript it has seen (the figure), about one that grew by a turn,
  /// and about one whose every message is new.
  func transcriptTokenCount() async throws -> FigureReport {
    let entries = try await history(ofAtLeast: 4000)
    let tokens = try await model.tokenCount(for: entries)
    var milliseconds = Measurements()
    for _ in 0..<max(runs, 20) {
      let start = DispatchTime.now()
      _ = try await model.tokenCount(for: entries)
      milliseconds.append(elapsed(since: start) * 1000)
    }
    let pairs = (entries.count - 1) / 2
    let grown = history(pairs: pairs + 1)
    var start = DispatchTime.now()
    _ = try await model.tokenCount(
      for: grown + [.prompt(.init(segments: [.text(.init(content: "One more question."))]))])
    let grownMilliseconds = elapsed(since: start) * 1000
    start = DispatchTime.now()
    _ = try await model.tokenCount(for: history(pairs: pairs, subject: "Glaciers"))
    let newMilliseconds = elapsed(since: start) * 1000
    return FigureReport(
      id: "P9", figure: "tokenCount(for:) on a ~4,000-token transcript", unit: "ms", ours: milliseconds,
      reference: nil, ratio: nil, target: "< 5 ms", pass: milliseconds.median < 5,
      notes: [
        "transcript_tokens": "\(tokens)", "entries": "\(entries.count)",
        "grown_by_a_turn_ms": "\(Measurements.rounded(grownMilliseconds))",
        "all_messages_new_ms": "\(Measurements.rounded(newMilliseconds))",
      ])
  }

  /// P8: resident memory after each turn of a chat, against model file size plus KV cache size.
  ///
  /// The turns ask for varied text, so that many distinct tokens go through the model (each
  /// reads its own row of the token-embedding table); the figure is the largest reading.
  /// - Parameter baselineBytes: resident memory of this process before the model was loaded
  ///   (the Swift runtime and libraries), reported beside the figure.
  func memoryOverhead(keyValueCacheBytes: Int, baselineBytes: Int) async throws -> FigureReport {
    let chat = LanguageModelSession(model: model)
    let prompts = [
      "Write a paragraph about the ocean.", "Go on.", "Now describe a mountain village in winter.",
      "List ten programming languages and one strength of each.", "Translate your last answer into French.",
      "Write a short poem about trains.", "Explain how a compiler works.", "Summarise our conversation.",
    ]
    var ours = Measurements()
    var largest = (resident: 0, mappedFile: 0)
    for prompt in prompts {
      try await chat.respond(to: prompt, options: GenerationOptions(maximumResponseTokens: 96))
      let resident = ProcessMemory.residentBytes()
      ours.append(Double(resident) / 1_048_576)
      if resident > largest.resident {
        largest = (resident, ProcessMemory.residentBytes(ofMappedFile: modelPath))
      }
    }
    let fileSize = Double((try? FileManager.default.attributesOfItem(atPath: modelPath)[.size] as? Int) ?? 0)
    let overheadMB = (Double(largest.resident) - fileSize - Double(keyValueCacheBytes)) / 1_048_576
    var reference = Measurements()
    reference.append((fileSize + Double(keyValueCacheBytes)) / 1_048_576)
    return FigureReport(
      id: "P8", figure: "resident memory during chat (largest after each of 8 turns) vs model file + KV cache",
      unit: "MB", ours: ours, reference: reference, ratio: nil, target: "overhead < 64 MB", pass: overheadMB < 64,
      notes: [
        "overhead_mb": "\(Measurements.rounded(overheadMB))", "context_size": "\(model.contextSize)",
        "turns": "\(prompts.count)", "history_tokens": "\(try await model.tokenCount(for: chat.transcript))",
        "resident_model_file_mb": "\(Measurements.rounded(Double(largest.mappedFile) / 1_048_576))",
        "process_baseline_mb": "\(Measurements.rounded(Double(baselineBytes) / 1_048_576))",
      ])
  }
}
