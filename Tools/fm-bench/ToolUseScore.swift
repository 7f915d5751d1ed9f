import Foundation
import GuidedDecoding
import JSON

/// A call one side made: the tool's name and its arguments as the side gave them (JSON text).
struct MadeCall {
  var name: String
  var arguments: String

  var description: String { "\(name)(\(arguments))" }
}

/// What one side did with one prompt of the tool-use set.
struct ToolUseOutcome {
  /// Every call of the turn, over all its rounds.
  var calls: [MadeCall] = []
  /// Call blocks the side wrote but did not turn into calls (llama-server leaves a
  /// `<tool_call>` it cannot parse in the answer's text); each counts as malformed.
  var unparsedCalls = 0
  /// Prompt to final answer.
  var seconds = 0.0
  var answer = ""
  /// Why the turn failed, if it did.
  var error: String?
  /// Prompt tokens the model evaluated (not taken from a cache), over all rounds.
  var evaluatedPromptTokens = 0
  var outputTokens = 0
}

/// One side's tally over the set: the quality counts and times of P12.
struct ToolUseTally {
  var calls = 0
  /// Calls whose arguments are not JSON or break the tool's schema, calls of an unknown tool,
  /// and call blocks left unparsed.
  var malformed = 0
  /// Prompts that expect calls, and those among them whose calls name exactly the expected
  /// tools (as a multiset).
  var toolPrompts = 0
  var rightTool = 0
  /// Expected calls, and those matched by a call of the same tool whose checked arguments all
  /// have the expected values (each call matches at most one expected call).
  var expectedCalls = 0
  var matchedCalls = 0
  /// Prompts that need no tool, and those answered without a call.
  var noToolPrompts = 0
  var correctNoCall = 0
  /// Prompts whose calls were exactly right: every expected call matched and no other call.
  var exact = 0
  /// Prompts done whole: calls exactly right and a final answer (a turn that failed has none).
  var succeeded = 0
  var errors = 0
  /// Final answers that spell out a call as text (`"name": "getWeather"` and the like) instead
  /// of making it: a model that knows it should call but not how.
  var callsWrittenAsText = 0
  var seconds = Measurements()
  var evaluatedPromptTokens = 0
  var outputTokens = 0

  /// Counts `outcome` for `prompt`.
  /// - Returns: a short verdict for the progress line.
  @discardableResult
  mutating func add(_ outcome: ToolUseOutcome, for prompt: ToolUsePrompt, in set: ToolUseSet) -> String {
    seconds.append(outcome.seconds)
    evaluatedPromptTokens += outcome.evaluatedPromptTokens
    outputTokens += outcome.outputTokens
    if outcome.error != nil { errors += 1 }
    let answered = outcome.error == nil && !outcome.answer.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    let spelled = set.tools.contains { tool in
      outcome.answer.range(of: #""name":\s*"\#(tool.name)""#, options: .regularExpression) != nil
    }
    if spelled { callsWrittenAsText += 1 }
    calls += outcome.calls.count + outcome.unparsedCalls
    let bad =
      outcome.calls.filter { call in !(set.tool(named: call.name)?.accepts(call.arguments) ?? false) }.count
      + outcome.unparsedCalls
    malformed += bad
    var verdict: [String] = bad > 0 ? ["\(bad) malformed"] : []
    if spelled { verdict.append("a call written as text") }
    if prompt.expected.isEmpty {
      noToolPrompts += 1
      let none = outcome.calls.isEmpty && outcome.unparsedCalls == 0
      if none {
        correctNoCall += 1
        exact += 1
        if answered { succeeded += 1 }
      }
      verdict.append(none ? "no call ✔" : "called a tool ✘")
      if !answered { verdict.append("no final answer ✘") }
      return verdict.joined(separator: ", ")
    }
    toolPrompts += 1
    let rightNames = outcome.calls.map(\.name).sorted() == prompt.expected.map(\.tool).sorted()
    if rightNames { rightTool += 1 }
    var unused = outcome.calls
    var matched = 0
    for expected in prompt.expected {
      if let index = unused.firstIndex(where: { Self.matches($0, expected) }) {
        matched += 1
        unused.remove(at: index)
      }
    }
    expectedCalls += prompt.expected.count
    matchedCalls += matched
    let allRight = matched == prompt.expected.count && unused.isEmpty && outcome.unparsedCalls == 0
    if allRight { exact += 1 }
    if allRight && answered { succeeded += 1 }
    verdict.append(rightNames ? "right tools" : "wrong tools ✘")
    verdict.append("arguments \(matched)/\(prompt.expected.count)\(matched == prompt.expected.count ? "" : " ✘")")
    if !answered { verdict.append("no final answer ✘") }
    return verdict.joined(separator: ", ")
  }

  /// Whether `call` is `expected`'s tool with every checked argument as expected: strings
  /// equal ignoring case and surrounding whitespace, numbers equal in value.
  static func matches(_ call: MadeCall, _ expected: ToolUsePrompt.ExpectedCall) -> Bool {
    guard call.name == expected.tool, let arguments = try? JSONValue(parsing: call.arguments) else { return false }
    return expected.arguments.allSatisfy { checked in
      guard let value = arguments[checked.key] else { return false }
      switch (checked.value, value) {
      case (.string(let want), .string(let got)):
        return want.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
          == got.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
      case (.number(let want), .number(let got)): return want == got
      default: return checked.value.isJSONEqual(to: value)
      }
    }
  }

  /// The rates and counts of the report's notes, prefixed with the side's name.
  func notes(prefix: String) -> [String: String] {
    func rate(_ part: Int, _ whole: Int) -> String {
      "\(Measurements.rounded(Double(part) / Double(max(whole, 1)))) (\(part)/\(whole))"
    }
    return [
      "\(prefix)_calls": "\(calls)", "\(prefix)_malformed_calls": "\(malformed)",
      "\(prefix)_right_tool_rate": rate(rightTool, toolPrompts),
      "\(prefix)_argument_accuracy": rate(matchedCalls, expectedCalls),
      "\(prefix)_correct_no_call_rate": rate(correctNoCall, noToolPrompts),
      "\(prefix)_exact_prompts": rate(exact, toolPrompts + noToolPrompts),
      "\(prefix)_whole_task_successes": rate(succeeded, toolPrompts + noToolPrompts),
      "\(prefix)_total_seconds": "\(Measurements.rounded(seconds.values.reduce(0, +)))",
      "\(prefix)_evaluated_prompt_tokens": "\(evaluatedPromptTokens)", "\(prefix)_output_tokens": "\(outputTokens)",
      "\(prefix)_failed_turns": "\(errors)", "\(prefix)_answers_with_a_call_as_text": "\(callsWrittenAsText)",
    ]
  }
}

extension ToolUseTally {
  /// The counts of both sides as a Markdown table, for `bench/README.md`.
  static func table(ours: ToolUseTally, reference: ToolUseTally) -> String {
    let rows: [(String, (ToolUseTally) -> Int)] = [
      (
        "whole task done: right calls, right arguments, a final answer (\(ours.toolPrompts + ours.noToolPrompts))",
        \.succeeded
      ),
      ("calls made", \.calls),
      ("malformed calls", \.malformed),
      ("right tools (\(ours.toolPrompts) prompts that need one)", \.rightTool),
      ("arguments right (\(ours.expectedCalls) expected calls)", \.matchedCalls),
      ("no call where none is needed (\(ours.noToolPrompts))", \.correctNoCall),
      ("prompts whose calls are exactly right", \.exact),
      ("failed turns", \.errors),
      ("final answers that write a call as text", \.callsWrittenAsText),
      ("prompt tokens evaluated", \.evaluatedPromptTokens),
      ("tokens generated", \.outputTokens),
    ]
    return
      (["| | ours | llama-server |", "|---|---|---|"]
      + rows.map { name, count in "| \(name) | \(count(ours)) | \(count(reference)) |" }).joined(separator: "\n")
  }
}
