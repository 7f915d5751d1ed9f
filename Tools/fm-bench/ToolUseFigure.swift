import FMTestSupport
import Foundation
import FoundationModels
import InferenceEngine

/// P12 of BENCHMARKS.md: the tool-use set (`bench/tool-use/set.json`), prompt to final answer,
/// through `LanguageModelSession` with fake tools against `llama-server --jinja` with the same
/// tools as OpenAI `tools`, on the same model file and thread count, greedy, the same budget.
///
/// Both sides also count the quality of their calls: malformed calls (arguments that are not
/// JSON or break the tool's schema, or an unknown tool), the right tools, the right checked
/// arguments, and no call where none is needed.
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

  var model: SystemLanguageModel { SystemLanguageModel(path: URL(fileURLWithPath: modelPath)) }

  /// Runs every prompt on both sides, alternating which goes first.
  func measure() async throws -> FigureReport {
    let set = try ToolUseSet(contentsOf: setURL)
    let prompts = Array(set.prompts.prefix(limit ?? set.prompts.count))
    let tools = try set.tools.map(FakeTool.init)
    progress("P12 starting llama-server --jinja (-t \(threads) -c 4096 -np 1)")
    let server = try await LlamaServer.start(
      model: modelPath, contextSize: 4096, threads: threads, readyWithin: 300)
    defer { server.stop() }
    let reference = ChatCompletionsToolTurn(server: server, set: set, maximumTokens: maximumTokens)
    // One untimed turn on each side first: it loads the model (ours) and touches the memory
    // both sides use, which the other figures' warm-ups also leave out.
    if let first = prompts.first {
      progress("P12 warm-up")
      _ = await ours(first.prompt, tools: tools, set: set)
      _ = await reference.run(first.prompt)
    }
    var ourTally = ToolUseTally()
    var theirTally = ToolUseTally()
    for (index, prompt) in prompts.enumerated() {
      var mine = ToolUseOutcome()
      var theirs = ToolUseOutcome()
      if index.isMultiple(of: 2) {
        mine = await ours(prompt.prompt, tools: tools, set: set)
        theirs = await reference.run(prompt.prompt)
      } else {
        theirs = await reference.run(prompt.prompt)
        mine = await ours(prompt.prompt, tools: tools, set: set)
      }
      let ourVerdict = ourTally.add(mine, for: prompt, in: set)
      let theirVerdict = theirTally.add(theirs, for: prompt, in: set)
      progress("P12 \(index + 1)/\(prompts.count) \(prompt.id) [\(prompt.kind.rawValue)]")
      progress("  ours \(Self.line(mine)); \(ourVerdict)")
      progress("  llama-server \(Self.line(theirs)); \(theirVerdict)")
      if showOutputs {
        progress("  ours: \(mine.answer)\n  llama-server: \(theirs.answer)")
      }
    }
    let ourTotal = ourTally.seconds.values.reduce(0, +)
    let theirTotal = theirTally.seconds.values.reduce(0, +)
    let ratio = theirTotal / max(ourTotal, 1e-9)
    var notes = ourTally.notes(prefix: "ours").merging(theirTally.notes(prefix: "reference")) { $1 }
    notes["prompts"] = "\(prompts.count)"
    notes["set"] = setURL.path
    notes["max_tokens"] = "\(maximumTokens)"
    notes["threads"] = "\(threads)"
    notes["median_ratio"] = "\(Measurements.rounded(theirTally.seconds.median / max(ourTally.seconds.median, 1e-9)))"
    return FigureReport(
      id: "P12",
      figure:
        "tool-use set, prompt to final answer: LanguageModelSession with tools vs llama-server --jinja (ratio: reference total time / ours)",
      unit: "seconds", ours: ourTally.seconds, reference: theirTally.seconds, ratio: Measurements.rounded(ratio),
      target: ">= 1.5, and 0 malformed calls", pass: ratio >= 1.5 && ourTally.malformed == 0, notes: notes)
  }

  /// Our side of one prompt: a new session with the fake tools and the set's instructions,
  /// `respond(to:)` to the final answer; the calls are read from the transcript.
  private func ours(_ prompt: String, tools: [FakeTool], set: ToolUseSet) async -> ToolUseOutcome {
    var outcome = ToolUseOutcome()
    let session = LanguageModelSession(model: model, tools: tools, instructions: set.instructions)
    // A failed turn keeps its calls in the transcript, so that they are still counted.
    session.transcriptErrorHandlingPolicy = .preserveTranscript
    let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: maximumTokens)
    let start = DispatchTime.now()
    do {
      outcome.answer = try await session.respond(to: prompt, options: options).content
    } catch {
      outcome.error = "\(error)"
    }
    outcome.seconds = elapsed(since: start)
    for entry in session.transcript {
      guard case .toolCalls(let calls) = entry else { continue }
      outcome.calls += calls.map { MadeCall(name: $0.toolName, arguments: $0.arguments.jsonString) }
    }
    let usage = session.usage
    outcome.evaluatedPromptTokens = usage.input.totalTokenCount - usage.input.cachedTokenCount
    outcome.outputTokens = usage.output.totalTokenCount
    return outcome
  }

  /// Time, calls and failure of one side's turn, for the progress line.
  private static func line(_ outcome: ToolUseOutcome) -> String {
    let calls = outcome.calls.map(\.description).joined(separator: " ")
    let unparsed = outcome.unparsedCalls > 0 ? " + \(outcome.unparsedCalls) unparsed" : ""
    let failure = outcome.error.map { " FAILED: \($0.prefix(200))" } ?? ""
    return
      "\(Measurements.rounded(outcome.seconds)) s, \(outcome.evaluatedPromptTokens) prompt tokens evaluated, \(outcome.outputTokens) generated, calls [\(calls)]\(unparsed)\(failure)"
  }
}
