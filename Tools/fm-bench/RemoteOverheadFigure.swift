import FMTestSupport
import Foundation
import FoundationModels
import JSON
import RemoteModel

/// P13: what the remote model adds to a server's answer. A `LanguageModelSession` on
/// `OpenAICompatibleLanguageModel` streams an answer, against the same streamed chat completion
/// sent straight to the server: time to first token and generated tokens/s after it, greedy.
///
/// The session runs with `.permissiveContentTransformations` guardrails, which check no
/// `String` answer: the figure is the remote model's own cost. A session with the `.default`
/// guardrails (checking the prompt and every streamed snapshot, its uncertain texts with the
/// local embedding probe) is measured beside it and reported in the notes.
///
/// Rounds rotate which side asks first, after one untimed round; every request's prompt is its
/// own (`Request 3a.`, `Request 3b.`, the same length) so that no side finds another's prompt in
/// the server's prefix cache.
struct RemoteOverheadFigure {
  /// The server, as a report names it, its address (root or `/v1`) and model.
  let serverName: String
  let url: URL
  let model: String
  let runs: Int
  let maximumTokens: Int

  struct Sample {
    var firstToken: Double
    var rate: Double
  }

  func measure() async throws -> [FigureReport] {
    let remote = OpenAICompatibleLanguageModel(baseURL: url, model: model, maximumRetries: 1)
    let sides: [(name: String, ask: (String) async throws -> Sample)] = [
      ("session", { try await throughSession(remote.guardrails(.permissiveContentTransformations), prompt: $0) }),
      ("direct", { try await straight(prompt: $0) }),
      ("guarded", { try await throughSession(remote, prompt: $0) }),
    ]
    var samples: [String: [Sample]] = [:]
    for round in 0...runs {
      progress("P13 \(serverName) round \(round)/\(runs)")
      for turn in 0..<sides.count {
        let (name, ask) = sides[(round + turn) % sides.count]
        let sample = try await ask("Request \(round)\(name.prefix(1)). Write a short story about a lighthouse keeper.")
        if round > 0 { samples[name, default: []].append(sample) }
      }
    }
    let session = samples["session"] ?? []
    let direct = samples["direct"] ?? []
    let guarded = samples["guarded"] ?? []
    let ours = Measurements(values: session.map(\.firstToken))
    let theirs = Measurements(values: direct.map(\.firstToken))
    let ourRate = Measurements(values: session.map(\.rate))
    let theirRate = Measurements(values: direct.map(\.rate))
    let firstTokenRatio = theirs.median / max(ours.median, 1e-9)
    let rateRatio = ourRate.median / max(theirRate.median, 1e-9)
    let notes = [
      "server": serverName, "model": model, "runs": String(runs), "max_tokens": String(maximumTokens),
      "default_guardrails_first_token_s": String(Measurements(values: guarded.map(\.firstToken)).median),
      "default_guardrails_tokens_per_s": String(Measurements(values: guarded.map(\.rate)).median),
    ]
    return [
      FigureReport(
        id: "P13", figure: "remote model time to first token against \(serverName) directly (ratio: theirs / ours)",
        unit: "s", ours: ours, reference: theirs, ratio: firstTokenRatio, target: ">= 0.95",
        pass: firstTokenRatio >= 0.95, notes: notes),
      FigureReport(
        id: "P13", figure: "remote model generated tokens/s against \(serverName) directly", unit: "tokens/s",
        ours: ourRate, reference: theirRate, ratio: rateRatio, target: ">= 0.95", pass: rateRatio >= 0.95,
        notes: notes),
    ]
  }

  /// A session's streamed answer: the first snapshot with text, and tokens after it.
  private func throughSession(_ model: some LanguageModel, prompt: String) async throws -> Sample {
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: maximumTokens)
    let session = LanguageModelSession(model: model)
    let start = DispatchTime.now()
    var first: Double?
    let stream = session.streamResponse(to: prompt, options: options)
    for try await snapshot in stream where first == nil && !snapshot.content.isEmpty {
      first = elapsed(since: start)
    }
    let response = try await stream.collect()
    let total = elapsed(since: start)
    let firstToken = first ?? total
    let tokens = response.usage.output.totalTokenCount
    return Sample(firstToken: firstToken, rate: Double(max(tokens - 1, 0)) / max(total - firstToken, 1e-9))
  }

  /// The same request sent straight to the server.
  private func straight(prompt: String) async throws -> Sample {
    let completion = await StreamedCompletion.request(
      StreamedCompletion.greedyBody(model: model, prompt: prompt, maximumTokens: maximumTokens), to: url)
    guard completion.error == nil, let first = completion.timeToFirstToken else {
      throw BenchError("\(serverName) failed: \(completion.error ?? "no token")")
    }
    return Sample(
      firstToken: first,
      rate: Double(max(completion.completionTokens - 1, 0)) / max(completion.seconds - first, 1e-9))
  }

}
