import FMTestSupport
import Foundation
import GuidedDecoding
import JSON

/// P15: one stream's generated tokens/s with speculative decoding, on three workloads of the
/// repository (`bench/workloads`: rewriting a given text or file, extracting a document's facts
/// into a JSON Schema, open chat), against `fm serve --speculate off` and against
/// `llama-server`'s speculative modes on the same requests.
///
/// Every side is a server answering one streamed request at a time, greedy, so that the sides
/// generate the same answers and differ in how fast: `fm serve` with each `--speculate` mode,
/// `llama-server` with each `--spec-type` n-gram mode and, with `--draft-model`, both with that
/// model drafting (the figure's ratios are the default mode's, `lookup`; the notes give every
/// side's rate). All are started first and each prompt goes to every side in turn, so the
/// machine's drift over the run falls on all sides alike (the model file is mapped once, in the
/// page cache, for all). A side's rate on a workload is its generated tokens after the first
/// over the seconds after the first, summed over the prompts.
struct SpeculationFigure {
  let modelPath: String
  let draftModelPath: String?
  let workloadDirectory: URL
  /// The first prompts of each workload only, when given.
  let limit: Int?

  struct Workload {
    var name: String
    var prompts: [Prompt]
    var maximumTokens: Int
  }

  struct Prompt {
    var id: String
    var text: String
    var schema: JSONValue?
  }

  /// A server to measure: how to start it and what it is called in the report.
  struct Side {
    var name: String
    var start: @Sendable () async throws -> (url: URL, stop: @Sendable () -> Void)
  }

  /// What a side did on one workload.
  struct Outcome {
    var tokens = 0
    var seconds = 0.0
    var valid = 0
    var failed = 0
    var rate: Double { seconds > 0 ? Double(tokens) / seconds : 0 }
  }

  static let workloadNames = [("rewrite", 512), ("extract", 512), ("chat", 256)]

  /// The workloads of the folder; an empty file leaves its workload out of the run.
  func workloads() throws -> [Workload] {
    try Self.workloadNames.compactMap { name, maximumTokens in
      let url = workloadDirectory.appendingPathComponent("\(name).jsonl")
      guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        throw BenchError(
          "no workload at \(url.path) (--corpus DIR names the folder of rewrite, extract and chat.jsonl)")
      }
      let prompts = try text.split(separator: "\n").map { line in
        let item = try JSONValue(parsing: String(line))
        guard let id = item["id"]?.stringValue, let prompt = item["prompt"]?.stringValue else {
          throw BenchError("a line of \(url.path) has no id or prompt")
        }
        return Prompt(id: id, text: prompt, schema: item["schema"])
      }
      if prompts.isEmpty { return nil }
      return Workload(name: name, prompts: Array(prompts.prefix(limit ?? prompts.count)), maximumTokens: maximumTokens)
    }
  }

  var sides: [Side] {
    let model = modelPath
    var modes = [("lookup", [String]()), ("off", [])]
    if let draft = draftModelPath { modes.append(("draft", ["--draft-model", draft])) }
    var sides = modes.map { mode, arguments in
      Side(name: "fm serve --speculate \(mode)") {
        let server = try ServeProcess.start(
          [model, "--parallel", "1", "--context", "4096", "--speculate", mode] + arguments)
        return (server.baseURL, { _ = server.terminate() })
      }
    }
    var reference: [(String, [String])] = ["ngram-simple", "ngram-mod"].map {
      ("llama-server --spec-type \($0)", ["--spec-type", $0])
    }
    if let draft = draftModelPath {
      reference.append(("llama-server --model-draft", ["--model-draft", draft, "--spec-draft-n-max", "16"]))
    }
    sides += reference.map { name, arguments in
      Side(name: name) {
        let server = try await LlamaServer.start(model: model, contextSize: 4096, arguments: arguments)
        return (server.baseURL, { server.stop() })
      }
    }
    return sides
  }

  func measure() async throws -> [FigureReport] {
    let workloads = try workloads()
    guard let first = workloads.first else { throw BenchError("no prompts in \(workloadDirectory.path)") }
    var servers: [(name: String, served: ServeFigure.Served, stop: @Sendable () -> Void)] = []
    defer { for server in servers { server.stop() } }
    for side in sides {
      progress("P15: starting \(side.name)")
      let (url, stop) = try await side.start()
      servers.append((side.name, try await ServeFigure.served(url), stop))
      // One untimed request first: first-use costs are not the figure.
      _ = await StreamedCompletion.request(
        body(first.prompts[0], first, model: servers[servers.count - 1].served.model), to: url)
    }
    var outcomes: [String: [String: Outcome]] = [:]
    for workload in workloads {
      for (index, prompt) in workload.prompts.enumerated() {
        progress("P15 \(workload.name) \(index + 1)/\(workload.prompts.count)")
        for server in servers {
          let completion = await StreamedCompletion.request(
            body(prompt, workload, model: server.served.model), to: server.served.url)
          var outcome = outcomes[server.name, default: [:]][workload.name, default: Outcome()]
          if completion.error == nil, let first = completion.timeToFirstToken {
            outcome.tokens += max(completion.completionTokens - 1, 0)
            outcome.seconds += completion.seconds - first
            if let schema = prompt.schema, (try? JSONSchemaParser().parse(schema))?.accepts(completion.content) == true
            {
              outcome.valid += 1
            }
          } else {
            outcome.failed += 1
          }
          outcomes[server.name, default: [:]][workload.name] = outcome
        }
      }
    }
    return workloads.map { report($0, outcomes: outcomes) }
  }

  private func report(_ workload: Workload, outcomes: [String: [String: Outcome]]) -> FigureReport {
    let ours = outcomes["fm serve --speculate lookup"]?[workload.name] ?? Outcome()
    let plain = outcomes["fm serve --speculate off"]?[workload.name] ?? Outcome()
    let theirs = outcomes.filter { $0.key.hasPrefix("llama-server") }.compactMap { name, byWorkload in
      byWorkload[workload.name].map { (name, $0) }
    }
    let best = theirs.max { $0.1.rate < $1.1.rate }
    let ownRatio = ours.rate / max(plain.rate, 1e-9)
    let referenceRatio = ours.rate / max(best?.1.rate ?? 0, 1e-9)
    let copies = workload.name != "chat"
    let passes = copies ? ownRatio >= 1.8 && referenceRatio >= 1.2 : ownRatio >= 0.97
    var notes = [
      "prompts": String(workload.prompts.count), "ratio_to_own_without": String(Measurements.rounded(ownRatio)),
      "best_reference": best?.0 ?? "none",
    ]
    for (name, byWorkload) in outcomes {
      guard let outcome = byWorkload[workload.name] else { continue }
      var line = "\(Measurements.rounded(outcome.rate)) tokens/s, \(outcome.tokens) tokens"
      if workload.name == "extract" { line += ", \(outcome.valid)/\(workload.prompts.count) valid" }
      if outcome.failed > 0 { line += ", \(outcome.failed) failed" }
      notes[name] = line
    }
    return FigureReport(
      id: "P15",
      figure: "one stream's tokens/s with speculation, \(workload.name) (ratio: against the best llama-server mode)",
      unit: "tokens/s", ours: Measurements(values: [ours.rate]), reference: Measurements(values: [best?.1.rate ?? 0]),
      ratio: referenceRatio,
      target: copies ? ">= 1.8 x our own without, >= 1.2 x llama-server's best" : ">= 0.97 x our own without",
      pass: passes, notes: notes)
  }

  private func body(_ prompt: Prompt, _ workload: Workload, model: String) -> [JSONValue.Member] {
    StreamedCompletion.greedyBody(
      model: model, prompt: prompt.text, maximumTokens: workload.maximumTokens,
      format: prompt.schema.map {
        StreamedCompletion.SchemaFormat(
          name: prompt.id.replacingOccurrences(of: "-", with: "_"), schema: $0, strict: true)
      })
  }
}
