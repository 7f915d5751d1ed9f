import FMTestSupport
import Foundation

/// P16: the agent conversation of `AgentScript` (a ~1,500-token system prompt, five tools, ten
/// turns, a tool call every other turn) replayed against `fm serve` and `llama-server --jinja`
/// from the same build, same model and requests, in one run:
///
/// - once per API: `/v1/responses` (ours with `previous_response_id`, sending only each turn's
///   new input; llama-server, which refuses it, with the whole input resent), and
///   `/v1/chat/completions` and `/v1/messages` resending the history on both; the time to first
///   output (text, or a tool call opening) and the prompt tokens evaluated, turn by turn;
/// - then `conversations` such conversations at once through chat completions on `slots` slots
///   (more conversations than slots, as a team's agents are), each its own
///   (`AgentConversation.member`: the same system prompt and tools, its own questions): the p50
///   time to first output.
///
/// Both servers run `slots` sequences of `contextPerSlot` tokens (llama-server with its
/// defaults otherwise, its host-memory prompt cache included). Each run replays ours, then the
/// reference; ratios are of medians, reference / ours (higher is better).
struct AgentConversationFigure {
  let modelPath: String
  let runs: Int
  /// More arguments for llama-server (`-fa off`, say).
  var referenceArguments: [String] = []
  var slots = 4
  var contextPerSlot = 4096
  var conversations = 8
  var threads = ProcessInfo.processInfo.activeProcessorCount

  func measure() async throws -> [FigureReport] {
    progress("P16: starting llama-server -np \(slots) and fm serve --parallel \(slots)")
    let reference = try await LlamaServer.start(
      model: modelPath, contextSize: contextPerSlot * slots, slots: slots, threads: threads,
      arguments: referenceArguments)
    defer { reference.stop() }
    let server = try ServeProcess.start([
      modelPath, "--parallel", String(slots), "--context", String(contextPerSlot),
    ])
    defer { _ = server.terminate() }
    let ours = try await ServeFigure.served(server.baseURL)
    let theirs = try await ServeFigure.served(reference.baseURL)
    var reports: [FigureReport] = []
    for api in AgentAPI.allCases {
      var figures = (ours: [[AgentTurn]](), reference: [[AgentTurn]]())
      for run in 0..<runs {
        progress("P16 \(api.rawValue), run \(run + 1)/\(runs)")
        figures.ours.append(await replay(api, on: ours, chains: api == .responses))
        figures.reference.append(await replay(api, on: theirs, chains: false))
      }
      reports += Self.reports(api, ours: figures.ours, reference: figures.reference)
    }
    var interleaved = (ours: [AgentTurn](), reference: [AgentTurn]())
    for run in 0..<runs {
      progress("P16 \(conversations) conversations on \(slots) slots, run \(run + 1)/\(runs)")
      interleaved.ours += await interleave(on: ours)
      interleaved.reference += await interleave(on: theirs)
    }
    reports.append(interleavedReport(ours: interleaved.ours, reference: interleaved.reference))
    return reports
  }

  private func replay(_ api: AgentAPI, on server: ServeFigure.Served, chains: Bool, member: Int = 0) async
    -> [AgentTurn]
  {
    var conversation = AgentConversation(
      api: api, model: server.model, port: server.url.port ?? 80, chainsResponses: chains, member: member)
    var turns: [AgentTurn] = []
    for index in 0..<AgentScript.turns { turns.append(await conversation.turn(index)) }
    return turns
  }

  /// `conversations` conversations at once, each turn after its last; every turn of all.
  private func interleave(on server: ServeFigure.Served) async -> [AgentTurn] {
    await withTaskGroup(of: [AgentTurn].self) { group in
      for member in 0..<conversations {
        group.addTask { await replay(.chat, on: server, chains: false, member: member) }
      }
      var all: [AgentTurn] = []
      for await turns in group { all += turns }
      return all
    }
  }

  /// The turn-10 time to first output against the reference, and turn 10 against turn 2.
  private static func reports(_ api: AgentAPI, ours: [[AgentTurn]], reference: [[AgentTurn]]) -> [FigureReport] {
    func times(_ runs: [[AgentTurn]], turn: Int) -> Measurements {
      Measurements(values: runs.compactMap { $0.indices.contains(turn) ? $0[turn].timeToFirstOutput : nil })
    }
    func perTurn(_ runs: [[AgentTurn]]) -> String {
      (0..<AgentScript.turns).map { String(Measurements.rounded(times(runs, turn: $0).median)) }.joined(separator: " ")
    }
    func evaluated(_ runs: [[AgentTurn]]) -> String {
      (runs.last ?? []).map { "\($0.evaluatedTokens)/\($0.promptTokens)" }.joined(separator: " ")
    }
    let last = AgentScript.turns - 1
    let ratio = times(reference, turn: last).median / max(times(ours, turn: last).median, 1e-9)
    let flatness = times(ours, turn: last).median / max(times(ours, turn: 1).median, 1e-9)
    let errors = (ours + reference).joined().compactMap(\.error)
    let notes = [
      "ttft_per_turn_ours_s": perTurn(ours), "ttft_per_turn_reference_s": perTurn(reference),
      "evaluated_of_prompt_ours": evaluated(ours), "evaluated_of_prompt_reference": evaluated(reference),
      "errors": errors.isEmpty ? "0" : "\(errors.count): \(errors[0])",
    ]
    let target = api == .responses ? 3.0 : 1.0
    let how =
      api == .responses ? "ours with previous_response_id, llama-server resending" : "both resending the history"
    return [
      FigureReport(
        id: "P16", figure: "\(api.rawValue) turn 10 time to first output, \(how) (ratio: reference / ours)",
        unit: "s", ours: times(ours, turn: last), reference: times(reference, turn: last), ratio: ratio,
        target: ">= \(target)", pass: ratio >= target && errors.isEmpty, notes: notes),
      FigureReport(
        id: "P16", figure: "\(api.rawValue) turn 10 over turn 2 time to first output, ours (flat)", unit: "s",
        ours: times(ours, turn: last), reference: times(ours, turn: 1), ratio: flatness, target: "<= 1.3",
        pass: flatness <= 1.3, notes: [:]),
    ]
  }

  private func interleavedReport(ours: [AgentTurn], reference: [AgentTurn]) -> FigureReport {
    let mine = ours.compactMap(\.timeToFirstOutput)
    let theirs = reference.compactMap(\.timeToFirstOutput)
    let ratio = percentile(theirs, 0.5) / max(percentile(mine, 0.5), 1e-9)
    let errors = (ours + reference).compactMap(\.error)
    return FigureReport(
      id: "P16",
      figure:
        "\(conversations) conversations interleaved on \(slots) slots, chat completions: p50 time to first output (ratio: reference / ours)",
      unit: "s", ours: Measurements(values: mine), reference: Measurements(values: theirs), ratio: ratio,
      target: ">= 1.5", pass: ratio >= 1.5 && errors.isEmpty,
      notes: [
        "p50_ours_s": String(Measurements.rounded(percentile(mine, 0.5))),
        "p50_reference_s": String(Measurements.rounded(percentile(theirs, 0.5))),
        "p95_ours_s": String(Measurements.rounded(percentile(mine, 0.95))),
        "p95_reference_s": String(Measurements.rounded(percentile(theirs, 0.95))),
        "evaluated_ours": String(ours.reduce(0) { $0 + $1.evaluatedTokens }),
        "evaluated_reference": String(reference.reduce(0) { $0 + $1.evaluatedTokens }),
        "prompt_ours": String(ours.reduce(0) { $0 + $1.promptTokens }),
        "errors": errors.isEmpty ? "0" : "\(errors.count): \(errors[0])",
      ])
  }
}
