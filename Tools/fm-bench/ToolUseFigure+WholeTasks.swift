import Foundation

extension ToolUseFigure {
  /// (b): every prompt from the prompt to the final answer on both sides, scored.
  func wholeTasks(_ prompts: [ToolUsePrompt], set: ToolUseSet, sides: Sides) async -> FigureReport {
    var ours = ToolUseTally()
    var reference = ToolUseTally()
    for (index, prompt) in prompts.enumerated() {
      let (mine, theirs) = await Self.alternating(
        index, { await sides.ours.run(prompt.prompt) }, { await sides.reference.run(prompt.prompt) })
      let ourVerdict = ours.add(mine, for: prompt, in: set)
      let theirVerdict = reference.add(theirs, for: prompt, in: set)
      progress("P12 (b) \(index + 1)/\(prompts.count) \(prompt.id) [\(prompt.kind.rawValue)]")
      progress("  ours \(Self.line(mine)); \(ourVerdict)")
      progress("  llama-server \(Self.line(theirs)); \(theirVerdict)")
      if showOutputs {
        progress("  ours: \(mine.answer)\n  llama-server: \(theirs.answer)")
      }
    }
    progress("P12 (b) whole tasks:\n" + ToolUseTally.table(ours: ours, reference: reference))
    var notes = ours.notes(prefix: "ours").merging(reference.notes(prefix: "reference")) { $1 }
    notes["median_time_ratio"] =
      "\(Measurements.rounded(reference.seconds.median / max(ours.seconds.median, 1e-9)))"
    return FigureReport(
      id: "P12b",
      figure:
        "tool-use set, whole tasks (prompt to final answer): tasks done whole — right calls, right arguments, a final answer — by LanguageModelSession with tools vs llama-server --jinja (ratio: ours / reference; times are whole-task seconds)",
      unit: "seconds", ours: ours.seconds, reference: reference.seconds,
      ratio: reference.succeeded > 0 ? Measurements.rounded(Double(ours.succeeded) / Double(reference.succeeded)) : nil,
      target: ">= llama-server's tasks done whole, and 0 malformed calls",
      pass: ours.succeeded >= reference.succeeded && ours.malformed == 0, notes: notes)
  }
}
