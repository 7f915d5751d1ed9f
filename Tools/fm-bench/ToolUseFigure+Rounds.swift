import Foundation

extension ToolUseFigure {
  /// (a): for each prompt that needs a tool, both sides continue from the prompt, the set's
  /// calls and their outputs to the final answer, timed.
  func toolRounds(_ prompts: [ToolUsePrompt], set: ToolUseSet, sides: Sides) async throws -> FigureReport {
    let needing = prompts.filter { !$0.expected.isEmpty }
    var ours = ToolRoundTally()
    var reference = ToolRoundTally()
    for (index, prompt) in needing.enumerated() {
      let round = try ToolRound(prompt, in: set)
      let (mine, theirs) = await Self.alternating(
        index, { await sides.ours.run(prompt.prompt, after: round) },
        { await sides.reference.run(prompt.prompt, after: round) })
      ours.add(mine)
      reference.add(theirs)
      progress("P12 (a) \(index + 1)/\(needing.count) \(prompt.id), \(round.calls.count) call(s) given")
      progress("  ours \(Self.line(mine))")
      progress("  llama-server \(Self.line(theirs))")
      if showOutputs {
        progress("  ours: \(mine.answer)\n  llama-server: \(theirs.answer)")
      }
    }
    let ratio = reference.seconds.values.reduce(0, +) / max(ours.seconds.values.reduce(0, +), 1e-9)
    var notes = ours.notes(prefix: "ours").merging(reference.notes(prefix: "reference")) { $1 }
    notes["rounds"] = "\(needing.count)"
    notes["median_ratio"] = "\(Measurements.rounded(reference.seconds.median / max(ours.seconds.median, 1e-9)))"
    return FigureReport(
      id: "P12a",
      figure:
        "tool-use set, one tool round: from the prompt, the set's calls and their outputs to the final answer, LanguageModelSession vs llama-server --jinja (ratio: reference total time / ours)",
      unit: "seconds", ours: ours.seconds, reference: reference.seconds, ratio: Measurements.rounded(ratio),
      target: ">= 1.5", pass: ratio >= 1.5, notes: notes)
  }
}

/// One side's tally over the tool rounds of P12 (a).
struct ToolRoundTally {
  var seconds = Measurements()
  /// Rounds that ended with a final answer (text, no failure).
  var answered = 0
  /// Calls made after the given round (each runs its tool and asks the model again).
  var furtherCalls = 0
  var errors = 0
  var evaluatedPromptTokens = 0
  var outputTokens = 0

  mutating func add(_ outcome: ToolUseOutcome) {
    seconds.append(outcome.seconds)
    if outcome.error != nil {
      errors += 1
    } else if !outcome.answer.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      answered += 1
    }
    furtherCalls += outcome.calls.count + outcome.unparsedCalls
    evaluatedPromptTokens += outcome.evaluatedPromptTokens
    outputTokens += outcome.outputTokens
  }

  /// The counts of the report's notes, prefixed with the side's name.
  func notes(prefix: String) -> [String: String] {
    [
      "\(prefix)_total_seconds": "\(Measurements.rounded(seconds.values.reduce(0, +)))",
      "\(prefix)_answered": "\(answered)/\(seconds.values.count)", "\(prefix)_further_calls": "\(furtherCalls)",
      "\(prefix)_failed": "\(errors)", "\(prefix)_evaluated_prompt_tokens": "\(evaluatedPromptTokens)",
      "\(prefix)_output_tokens": "\(outputTokens)",
    ]
  }
}
