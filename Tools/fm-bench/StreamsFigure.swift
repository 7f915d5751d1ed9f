import Foundation
import FoundationModels
import InferenceEngine

/// The engine side of P11 (BENCHMARKS.md): N sessions streaming at once on a batched model
/// (`SystemLanguageModel.batched(slots:)`, one shared context, continuous batching) against the
/// same N sessions on the default path (a context each, decoding separately), in one run.
///
/// For each N: aggregate generated tokens/s (all streams' tokens over the round's wall time)
/// and the p50/p95 time to first token of the streams, for free text and for JSON-schema
/// constrained requests. Each round starts its N sessions together with N different prompts;
/// a warm-up round on each path comes first (the batched context and the separate contexts
/// are made then, as a server would have them). Every round's prompts end with a number of
/// their own, so that no path finds a whole earlier prompt in a cache (both find the chat
/// template's system part, as a server's requests do).
struct StreamsFigure {
  let modelPath: String
  let streams: [Int]
  let runs: Int
  let maximumTokens: Int
  let contextSize = 1024

  static let prompts = [
    "Write a story about a lighthouse keeper.", "Explain how a steam engine works.",
    "Describe a walk through a forest in autumn.", "Tell me about the history of sailing ships.",
    "Write a letter to a friend about a trip to the mountains.", "Explain why the sky is blue.",
    "Describe a busy market in the morning.", "Write a poem about the winter sea.",
    "Tell me how bread is made.", "Describe the life of a honeybee.", "Explain how a bicycle stays upright.",
    "Write a story about a lost cat finding its way home.", "Describe a thunderstorm over the plains.",
    "Tell me about the first flight across the ocean.", "Explain how rivers shape valleys.",
    "Write a short play about two chess players.",
  ]

  /// What the constrained requests ask for a book about (bland topics: the prompts of
  /// constrained requests go through the guardrails).
  static let topics = [
    "the sea", "mountains", "gardens", "trains", "bridges", "clocks", "rivers", "bees", "bread", "sailing",
    "bicycles", "chess", "forests", "markets", "lighthouses", "maps",
  ]

  static let schema = GenerationSchema(
    type: GeneratedContent.self,
    properties: [
      .init(name: "title", type: String.self), .init(name: "author", type: String.self),
      .init(name: "year", type: Int.self, guides: [.range(1450...2100)]),
      .init(name: "summary", type: String.self),
    ])

  /// One stream's outcome.
  private struct Stream: Sendable {
    var timeToFirstToken: Double
    var tokens: Int
  }

  /// Prints one report per N and kind as each is done.
  func measure() async throws {
    let url = URL(fileURLWithPath: modelPath)
    for count in streams {
      // Guardrails are not what is measured (and a small model judging uncertain prompts may
      // block one): String requests skip them on both paths.
      let separate = SystemLanguageModel(
        path: url, contextSize: contextSize, guardrails: .permissiveContentTransformations)
      let batched = separate.batched(slots: count)
      for constrained in [false, true] {
        let kind = constrained ? "json_schema" : "free"
        _ = try await round(on: separate, count: count, constrained: constrained, round: 0)
        _ = try await round(on: batched, count: count, constrained: constrained, round: 1)
        var ours = Measurements()
        var theirs = Measurements()
        var ourFirst: [Double] = []
        var theirFirst: [Double] = []
        for run in 1...runs {
          progress("streams \(count) \(kind) run \(run)/\(runs)")
          let (batchedRate, batchedStreams) = try await round(
            on: batched, count: count, constrained: constrained, round: 2 * run)
          let (separateRate, separateStreams) = try await round(
            on: separate, count: count, constrained: constrained, round: 2 * run + 1)
          ours.append(batchedRate)
          theirs.append(separateRate)
          ourFirst += batchedStreams.map(\.timeToFirstToken)
          theirFirst += separateStreams.map(\.timeToFirstToken)
        }
        let ratio = ours.median / theirs.median
        let statistics = batched.batchedModel?.statistics ?? BatchStatistics()
        FigureReport(
          id: "streams-\(count)-\(kind)",
          figure: "aggregate generated tokens/s, \(count) concurrent \(kind) sessions: batched vs a context each",
          unit: "tokens/s", ours: ours, reference: theirs, ratio: Measurements.rounded(ratio),
          target: "> 1 for N > 1",
          pass: count == 1 || ratio > 1,
          notes: [
            "ttft_p50_batched_s": "\(Measurements.rounded(percentile(ourFirst, 0.5)))",
            "ttft_p95_batched_s": "\(Measurements.rounded(percentile(ourFirst, 0.95)))",
            "ttft_p50_separate_s": "\(Measurements.rounded(percentile(theirFirst, 0.5)))",
            "ttft_p95_separate_s": "\(Measurements.rounded(percentile(theirFirst, 0.95)))",
            "maximum_tokens": "\(maximumTokens)", "context_size": "\(contextSize)",
            "batched_decodes": "\(statistics.decodes)", "batched_evaluations": "\(statistics.evaluations)",
            "batched_widest_decode": "\(statistics.widestDecode)",
            "batched_decode_ms_mean":
              "\(Measurements.rounded(statistics.decodeSeconds * 1000 / Double(max(1, statistics.decodes))))",
          ]
        ).print()
      }
    }
  }

  /// Runs `count` sessions at once on `model`, round `round` of the figure.
  /// - Returns: the generated tokens of all per second of the round, and each stream's figures.
  private func round(on model: SystemLanguageModel, count: Int, constrained: Bool, round: Int) async throws -> (
    Double, [Stream]
  ) {
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: maximumTokens)
    let start = DispatchTime.now()
    let results = try await withThrowingTaskGroup(of: Stream.self) { group in
      for index in 0..<count {
        let number = "Number \(round)-\(index + 1)."
        let prompt =
          constrained
          ? "Describe a book about \(Self.topics[index % Self.topics.count]). \(number)"
          : "\(Self.prompts[index % Self.prompts.count]) \(number)"
        group.addTask {
          let session = LanguageModelSession(model: model)
          var first: Double?
          if constrained {
            let stream = session.streamResponse(to: prompt, schema: Self.schema, options: options)
            for try await _ in stream where first == nil { first = elapsed(since: start) }
            let response = try await stream.collect()
            // A constrained answer that does not parse would make the figure meaningless.
            _ = try JSONSerialization.jsonObject(with: Data(response.rawContent.jsonString.utf8))
            return Stream(
              timeToFirstToken: first ?? elapsed(since: start), tokens: response.usage.output.totalTokenCount)
          }
          let stream = session.streamResponse(to: prompt, options: options)
          for try await _ in stream where first == nil { first = elapsed(since: start) }
          let response = try await stream.collect()
          return Stream(timeToFirstToken: first ?? elapsed(since: start), tokens: response.usage.output.totalTokenCount)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    let seconds = elapsed(since: start)
    return (Double(results.reduce(0) { $0 + $1.tokens }) / seconds, results)
  }
}
