import FMTestSupport
import Foundation
import GuidedDecoding
import JSON

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// P11: `fm serve` against `llama-server -np N` from the same build, on the same model and
/// requests, in one run: N concurrent streaming clients, each with its own prompt, greedy,
/// `max_tokens` each; aggregate generated tokens per second (all streams' tokens over the
/// wall time of the round) and the time to first token of every stream.
///
/// The same again with a `json_schema` response format, where llama-server samples under its
/// grammar and the outputs are checked against the schema on both sides.
///
/// Both servers run with `slots` sequences and `contextPerSlot` tokens each, started once;
/// each round runs ours, then the reference, `runs` times, so drift on a shared machine falls
/// on both. Ratios are of medians: throughput ours / reference, TTFT reference / ours (higher
/// is better on both).
struct ServeFigure {
  let modelPath: String
  let streams: [Int]
  let runs: Int
  let maximumTokens: Int
  var contextPerSlot = 1024
  var threads = ProcessInfo.processInfo.activeProcessorCount

  static let topics = [
    "a lighthouse keeper", "a lost umbrella", "the first snow", "a clockmaker", "a desert well",
    "a night train", "an old map", "a robot gardener", "a paper boat", "a mountain echo", "a quiet library",
    "a river crossing", "a stolen violin", "a winter market", "a broken compass", "a forgotten key",
  ]

  static let schema: JSONValue = {
    let text =
      #"{"type":"object","properties":{"title":{"type":"string","maxLength":60},"place":{"type":"string","maxLength":40},"characters":{"type":"array","items":{"type":"string","maxLength":30},"minItems":1,"maxItems":4},"mood":{"enum":["happy","sad","tense","calm"]},"year":{"type":"integer","minimum":1800,"maximum":2100}},"required":["title","place","characters","mood","year"],"additionalProperties":false}"#
    // A literal, checked by the figure's own run.
    return (try? JSONValue(parsing: text)) ?? .null
  }()

  func measure() async throws -> [FigureReport] {
    let slots = streams.max() ?? 1
    progress("P11: starting llama-server -np \(slots) and fm serve --parallel \(slots)")
    let reference = try await LlamaServer.start(
      model: modelPath, contextSize: contextPerSlot * slots, slots: slots, threads: threads,
      arguments: ["--cont-batching"])
    defer { reference.stop() }
    let ours = try ServeProcess.start([
      modelPath, "--parallel", String(slots), "--context", String(contextPerSlot),
    ])
    defer { _ = ours.terminate() }
    let document = try JSONSchemaParser().parse(Self.schema)
    var reports: [FigureReport] = []
    let servers = (ours: try await Self.served(ours.baseURL), reference: try await Self.served(reference.baseURL))
    for constrained in [false, true] {
      // One warm-up request each: first-use costs (page cache, allocations) are not the figure.
      _ = await round(1, on: servers.ours, constrained: constrained)
      _ = await round(1, on: servers.reference, constrained: constrained)
      for n in streams {
        var figures = (ours: RoundFigures(), reference: RoundFigures())
        for run in 0..<runs {
          progress("P11 \(constrained ? "json_schema" : "free") \(n) streams, run \(run + 1)/\(runs)")
          figures.ours.add(await round(n, on: servers.ours, constrained: constrained), document: document)
          figures.reference.add(await round(n, on: servers.reference, constrained: constrained), document: document)
        }
        reports += figures.ours.reports(against: figures.reference, streams: n, constrained: constrained)
      }
    }
    return reports
  }

  /// A server and the id of the model it serves (`GET /v1/models`), which requests name.
  struct Served: Sendable {
    var url: URL
    var model: String
  }

  static func served(_ url: URL) async throws -> Served {
    let (data, _) = try await URLSession.shared.data(from: url.appendingPathComponent("v1/models"))
    guard let id = try JSONValue(parsing: data)["data"]?.arrayValue?.first?["id"]?.stringValue else {
      throw BenchError("no model in \(url)/v1/models")
    }
    return Served(url: url, model: id)
  }

  /// `n` streams at once; their outcomes and the round's wall time.
  private func round(_ n: Int, on server: Served, constrained: Bool) async -> (
    outcomes: [StreamedCompletion], seconds: Double
  ) {
    let start = DispatchTime.now()
    let outcomes = await withTaskGroup(of: StreamedCompletion.self) { group in
      for i in 0..<n {
        let body = requestBody(model: server.model, topic: Self.topics[i % Self.topics.count], constrained: constrained)
        group.addTask { await StreamedCompletion.request(body, to: server.url) }
      }
      var all: [StreamedCompletion] = []
      for await outcome in group { all.append(outcome) }
      return all
    }
    return (outcomes, elapsed(since: start))
  }

  private func requestBody(model: String, topic: String, constrained: Bool) -> [JSONValue.Member] {
    let prompt =
      constrained
      ? "Invent a short story about \(topic) and describe it as a JSON object."
      : "Write a short story about \(topic)."
    return StreamedCompletion.greedyBody(
      model: model, prompt: prompt, maximumTokens: maximumTokens,
      format: constrained ? StreamedCompletion.SchemaFormat(name: "story", schema: Self.schema) : nil,
      extra: [.init(key: "seed", value: .number(ExactDecimal(42)))])
  }
}

/// One side's rounds of one P11 setting.
private struct RoundFigures {
  var throughput = Measurements()
  var firstTokens: [Double] = []
  var streams = 0
  var failed = 0
  var valid = 0
  var tokens = 0

  mutating func add(_ round: (outcomes: [StreamedCompletion], seconds: Double), document: SchemaDocument) {
    let generated = round.outcomes.reduce(0) { $0 + $1.completionTokens }
    throughput.append(Double(generated) / max(round.seconds, 1e-9))
    tokens += generated
    for outcome in round.outcomes {
      streams += 1
      if outcome.error != nil || outcome.timeToFirstToken == nil { failed += 1 }
      if let first = outcome.timeToFirstToken { firstTokens.append(first) }
      if document.accepts(outcome.content) { valid += 1 }
    }
  }

  func firstTokenPercentile(_ fraction: Double) -> Double { percentile(firstTokens, fraction) }

  var firstTokenMeasurements: Measurements { Measurements(values: firstTokens) }

  /// The throughput and TTFT reports of this setting, ours against `reference`.
  func reports(against reference: RoundFigures, streams n: Int, constrained: Bool) -> [FigureReport] {
    let kind = constrained ? "json_schema" : "free"
    let throughputRatio = throughput.median / max(reference.throughput.median, 1e-9)
    let ttftRatio = reference.firstTokenPercentile(0.5) / max(firstTokenPercentile(0.5), 1e-9)
    let atTarget = n == 8
    var notes = [
      "streams": String(n), "p95_ttft_ours_s": String(Measurements.rounded(firstTokenPercentile(0.95))),
      "p95_ttft_reference_s": String(Measurements.rounded(reference.firstTokenPercentile(0.95))),
      "failed_streams_ours": String(failed), "failed_streams_reference": String(reference.failed),
      "tokens_ours": String(tokens), "tokens_reference": String(reference.tokens),
    ]
    if constrained {
      notes["valid_ours"] = "\(valid)/\(streams)"
      notes["valid_reference"] = "\(reference.valid)/\(reference.streams)"
    }
    let throughputTarget = constrained ? 1.5 : 1.0
    return [
      FigureReport(
        id: "P11", figure: "fm serve aggregate generated tokens/s, \(n) concurrent \(kind) streams", unit: "tokens/s",
        ours: throughput, reference: reference.throughput, ratio: throughputRatio,
        target: atTarget ? ">= \(throughputTarget) at 8 streams" : "reported",
        pass: !atTarget || throughputRatio >= throughputTarget, notes: notes),
      FigureReport(
        id: "P11",
        figure: "fm serve time to first token, \(n) concurrent \(kind) streams (ratio: reference / ours, p50)",
        unit: "s", ours: firstTokenMeasurements, reference: reference.firstTokenMeasurements, ratio: ttftRatio,
        target: atTarget && !constrained ? "p50 <= 1.1 x reference at 8 streams" : "reported",
        pass: !(atTarget && !constrained) || firstTokenPercentile(0.5) <= 1.1 * reference.firstTokenPercentile(0.5),
        notes: notes),
    ]
  }
}
