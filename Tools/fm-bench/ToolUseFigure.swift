import FMTestSupport
import Foundation
import FoundationModels
import InferenceEngine

/// P12 of BENCHMARKS.md on the tool-use set (`bench/tool-use/set.json`): `LanguageModelSession`
/// with fake tools against `llama-server --jinja` with the same tools as OpenAI `tools`, on the
/// same model file and thread count, greedy, the same token budget per model request, each side
/// with the chat template it renders.
///
/// (a) One tool round: for each prompt that needs a tool, both sides continue from the prompt,
/// the set's expected calls and the tools' outputs for them to the final answer, timed.
/// (b) Whole tasks: every prompt from the prompt to the final answer, counting the quality of
/// the calls — malformed calls (arguments that are not JSON or break the tool's schema, or an
/// unknown tool), the right tools, the right checked arguments, no call where none is needed —
/// and the tasks done whole: the right calls with the right arguments, and a final answer.
struct ToolUseFigure {
  let modelPath: String
  let setURL: URL
  /// The first `limit` prompts only (nil: all).
  let limit: Int?
  /// Tokens each model request may generate: a round of calls or the answer.
  let maximumTokens: Int
  let threads = CPUTopology.physicalCores
  /// Prints each side's answer to stderr too.
  var showOutputs = ProcessInfo.processInfo.environment["FM_BENCH_SHOW"] != nil

  /// Both sides of the figure, ready to run.
  struct Sides {
    let ours: SessionToolTurn
    let reference: ChatCompletionsToolTurn
  }

  /// Runs (a), then (b), each prompt on both sides, alternating which goes first.
  /// - Returns: the report of (a), then that of (b).
  func measure() async throws -> [FigureReport] {
    let set = try ToolUseSet(contentsOf: setURL)
    let prompts = Array(set.prompts.prefix(limit ?? set.prompts.count))
    let model = SystemLanguageModel(path: URL(fileURLWithPath: modelPath))
    let tools = try set.tools.map(FakeTool.init)
    progress("P12 starting llama-server --jinja (-t \(threads) -c 4096 -np 1)")
    let server = try await LlamaServer.start(
      model: modelPath, contextSize: 4096, threads: threads, readyWithin: 300)
    defer { server.stop() }
    let sides = Sides(
      ours: SessionToolTurn(model: model, tools: tools, set: set, maximumTokens: maximumTokens),
      reference: ChatCompletionsToolTurn(server: server, set: set, maximumTokens: maximumTokens))
    // One untimed turn of each kind on each side first: it loads the model (ours) and touches
    // the memory both sides use, which the other figures' warm-ups also leave out. Its prompt is
    // none of the set's, so that no measured prompt finds itself in a cache.
    progress("P12 warm-up")
    _ = await sides.ours.run(Self.warmUpPrompt)
    _ = await sides.reference.run(Self.warmUpPrompt)
    if let first = prompts.first(where: { !$0.expected.isEmpty }) {
      let round = try ToolRound(first, in: set)
      _ = await sides.ours.run(Self.warmUpPrompt, after: round)
      _ = await sides.reference.run(Self.warmUpPrompt, after: round)
    }
    let common = [
      "prompts": "\(prompts.count)", "set": setURL.path, "max_tokens": "\(maximumTokens)", "threads": "\(threads)",
    ]
    var rounds = try await toolRounds(prompts, set: set, sides: sides)
    var tasks = await wholeTasks(prompts, set: set, sides: sides)
    rounds.notes.merge(common) { $1 }
    tasks.notes.merge(common) { $1 }
    return [rounds, tasks]
  }

  static let warmUpPrompt = "Say hello."

  /// Runs `first` then `second`, or the other way round for odd `index`.
  static func alternating<A, B>(
    _ index: Int, _ first: () async -> A, _ second: () async -> B
  ) async -> (A, B) {
    if index.isMultiple(of: 2) {
      let a = await first()
      return (a, await second())
    }
    let b = await second()
    return (await first(), b)
  }

  /// Time, calls and failure of one side's turn, for the progress line.
  static func line(_ outcome: ToolUseOutcome) -> String {
    let calls = outcome.calls.map(\.description).joined(separator: " ")
    let unparsed = outcome.unparsedCalls > 0 ? " + \(outcome.unparsedCalls) unparsed" : ""
    let failure = outcome.error.map { " FAILED: \($0.prefix(200))" } ?? ""
    return
      "\(Measurements.rounded(outcome.seconds)) s, \(outcome.evaluatedPromptTokens) prompt tokens evaluated, \(outcome.outputTokens) generated, calls [\(calls)]\(unparsed)\(failure)"
  }
}
