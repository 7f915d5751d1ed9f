import FMTestSupport
import Foundation
import Testing

/// `fm chat` run as a user would: the built binary on a pseudo-terminal (or pipes), with the
/// small model `smollm2-135m`. Replies are kept to a few tokens, since SmolLM2 with greedy
/// sampling can repeat itself until the context is full.
@Suite(.serialized) struct ChatEndToEndTests {
  private let state: TemporaryDirectory

  init() throws {
    state = try TemporaryDirectory()
  }

  private var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["TERM"] = "xterm"
    environment["XDG_STATE_HOME"] = state.url.path
    return environment
  }

  private func chat(_ arguments: [String]) throws -> PseudoTerminalProcess {
    try PseudoTerminalProcess(
      FMBinary.url(), arguments: ["chat", "--model", "smollm2-135m"] + arguments, environment: environment)
  }

  private static var modelIsPresent: Bool {
    FileManager.default.fileExists(atPath: TestModels.smolLM2Path)
  }

  @Test(.enabled(if: modelIsPresent))
  func unknownCommandStreamedReplyCtrlCSaveAndSession() throws {
    defer { state.remove() }
    let saved = state.url.appendingPathComponent("chat.json")
    let terminal = try chat(["--max-tokens", "8", "--sampling", "greedy", "--session", "e2e"])
    var mark = try terminal.waitFor(">>> ")
    terminal.send("/frobnicate\r")
    mark = try terminal.waitFor("unknown command '/frobnicate'", after: mark)
    terminal.send("/show transcript\r")
    mark = try terminal.waitFor("(empty)", after: mark)

    terminal.send("What is the capital of France?\r")
    mark = try terminal.waitFor("Context Window: ", after: mark)
    mark = try terminal.waitFor("/4096 tokens", after: mark)
    // The reply's length depends on the CPU; the budget holds on any (and a reply of no
    // tokens would be within it too).
    #expect((0...8).contains(Self.replyTokens(in: terminal.output) ?? -1))

    terminal.send("/set max-tokens 2000\r")
    mark = try terminal.waitFor("max-tokens 2000", after: mark)
    terminal.send("Write a very long story about a dragon and a knight.\r")
    // Some text of the reply, then Ctrl+C. The editor turns bracketed paste off when it hands
    // the terminal to the reply (signals on), so Ctrl+C after that raises SIGINT.
    mark = try terminal.waitFor("Write a very long story about a dragon and a knight.", after: mark)
    mark = try terminal.waitFor("\u{1B}[?2004l", after: mark)
    terminal.waitForMoreOutput(10)
    terminal.send("\u{3}")
    mark = try terminal.waitFor("[stopped]", after: mark)
    mark = try terminal.waitFor(">>> ", after: mark)
    terminal.send("\u{3}")
    mark = try terminal.waitFor("Use Ctrl+D or /bye", after: mark)

    terminal.send("/save \(saved.path)\r")
    mark = try terminal.waitFor("Saved to", after: mark)
    terminal.send("/bye\r")
    #expect(try terminal.waitForExit() == 0)

    let file = try JSONSerialization.jsonObject(with: Data(contentsOf: saved)) as? [String: Any]
    #expect(file?["model"] as? String == "smollm2-135m")
    #expect((file?["settings"] as? [String: Any])?["maximumResponseTokens"] as? Int == 2000)
    let transcript = try #require(file?["transcript"] as? [String: Any])
    #expect(transcript["version"] != nil, "the transcript is in FoundationModels' JSON form")
    let session = state.url.appendingPathComponent("fm/sessions/e2e.json")
    #expect(FileManager.default.fileExists(atPath: session.path), "--session saves after every turn")

    // The saved chat continues with --resume: the earlier prompt is in its transcript.
    let resumed = try chat(["--resume", saved.path])
    mark = try resumed.waitFor(">>> ")
    resumed.send("/show transcript\r")
    mark = try resumed.waitFor("What is the capital of France?", after: mark)
    resumed.send("/show parameters\r")
    mark = try resumed.waitFor("max-tokens       2000", after: mark)
    resumed.send("\u{4}")
    #expect(try resumed.waitForExit() == 0)
  }

  /// Apple's `fm chat` sessions: `/save NAME` keeps the chat by name, `/history` lists it,
  /// `--continue` and `-r NAME` resume it, `/model` and `/instructions` change the chat.
  @Test(.enabled(if: modelIsPresent))
  func sessionsAreSavedByNameListedAndResumed() throws {
    defer { state.remove() }
    let terminal = try chat(["--max-tokens", "4", "--sampling", "greedy"])
    var mark = try terminal.waitFor(">>> ")
    terminal.send("Hello there.\r")
    mark = try terminal.waitFor("Context Window: ", after: mark)
    terminal.send("/save work\r")
    mark = try terminal.waitFor("Saved to", after: mark)
    terminal.send("/history\r")
    mark = try terminal.waitFor("work  ", after: mark)
    terminal.send("/clear\r")
    mark = try terminal.waitFor("New chat started", after: mark)
    terminal.send("/load work\r")
    mark = try terminal.waitFor("Loaded work: ", after: mark)
    terminal.send("/instructions Be brief.\r")
    mark = try terminal.waitFor("Instructions set", after: mark)
    terminal.send("/instructions\r")
    mark = try terminal.waitFor("Be brief.", after: mark)
    terminal.send("/model \(TestModels.smolLM2Path)\r")
    mark = try terminal.waitFor("model \(TestModels.smolLM2Path)", after: mark)
    mark = try terminal.waitFor("Context Window: ", after: mark)
    mark = try terminal.waitFor(">>> ", after: mark)
    terminal.send("/bye\r")
    #expect(try terminal.waitForExit() == 0)
    // The session was saved after /save and every change since: the new instructions.
    for arguments in [["--continue"], ["-r", "work"], ["--resume", "work"]] {
      let resumed = try chat(arguments)
      mark = try resumed.waitFor(">>> ")
      resumed.send("/show instructions\r")
      mark = try resumed.waitFor("Be brief.", after: mark)
      mark = try resumed.waitFor(">>> ", after: mark)
      resumed.send("\u{4}")
      #expect(try resumed.waitForExit() == 0, "\(arguments): \(resumed.output)")
    }
    let missing = try FMBinary.run(["chat", "--resume", "nosuch"], environment: environment)
    #expect(missing.status == 64)
    #expect(missing.standardError.contains("no saved session 'nosuch'"))
  }

  /// The number in the last `reply [N tokens]` of `output`.
  static func replyTokens(in output: String) -> Int? {
    output.matches(of: /reply \[(\d+) tokens?\]/).last.flatMap { Int($0.1) }
  }

  /// Seeded samples differ between CPUs (llama.cpp is built for the machine), so the checks
  /// hold on any: two runs agree, and 12 tokens are the first 12 of a longer run with the same
  /// seed (or all of it when the model ends sooner).
  @Test(.enabled(if: modelIsPresent))
  func seededTopKIsReproducibleAcrossRuns() throws {
    defer { state.remove() }
    var replies: [(text: String, tokens: Int?)] = []
    for maxTokens in [12, 12, 48] {
      let terminal = try chat(["--max-tokens", "\(maxTokens)", "--no-history"])
      var mark = try terminal.waitFor(">>> ")
      terminal.send("/set sampling top-k 5 seed 7\r")
      mark = try terminal.waitFor("sampling top-k 5 seed 7", after: mark)
      terminal.send("Name three colors.\r")
      let start = try terminal.waitFor("Name three colors.", after: mark)
      let end = try terminal.waitFor("Context Window:", after: start)
      let output = String(terminal.output[start..<end])
      let text = output.range(of: "prompt [").map { String(output[..<$0.lowerBound]) } ?? output
      replies.append((text.trimmingCharacters(in: .whitespacesAndNewlines), Self.replyTokens(in: output)))
      terminal.send("/bye\r")
      #expect(try terminal.waitForExit() == 0)
    }
    #expect(replies[0].text == replies[1].text)
    #expect(replies[0].tokens == replies[1].tokens)
    let longer = try #require(replies[2].tokens)
    #expect(replies[0].tokens == min(12, longer))
    #expect(replies[2].text.hasPrefix(replies[0].text))
  }

  /// A blocked prompt is a message and the chat goes on with nothing added; after
  /// `/set guardrails permissive` the same prompt is answered.
  @Test(.enabled(if: modelIsPresent))
  func aGuardrailViolationIsShownAndTheChatGoesOnAndPermissiveTakesEffect() throws {
    defer { state.remove() }
    let terminal = try chat(["--max-tokens", "4", "--sampling", "greedy", "--no-history"])
    var mark = try terminal.waitFor(">>> ")
    terminal.send("Granular mango serpent\r")
    mark = try terminal.waitFor("Guardrail violation: The input (the prompt) was blocked", after: mark)
    mark = try terminal.waitFor("test phrase", after: mark)
    mark = try terminal.waitFor(">>> ", after: mark)
    terminal.send("/show transcript\r")
    mark = try terminal.waitFor("(empty)", after: mark)
    terminal.send("/set guardrails permissive\r")
    mark = try terminal.waitFor("guardrails permissive", after: mark)
    terminal.send("Granular mango serpent\r")
    mark = try terminal.waitFor("Context Window: ", after: mark)
    terminal.send("/set guardrails default\r")
    mark = try terminal.waitFor("guardrails default", after: mark)
    terminal.send("Granular mango serpent\r")
    mark = try terminal.waitFor("Guardrail violation", after: mark)
    terminal.send("/bye\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test(.enabled(if: modelIsPresent))
  func smallContextOverflowsIsSummarisedAndGoesOn() throws {
    defer { state.remove() }
    let terminal = try chat(["--context-size", "160", "--max-tokens", "16", "--sampling", "greedy", "--no-history"])
    var mark = try terminal.waitFor(">>> ")
    // Enough prompts to overflow 160 tokens on their own, however short the replies are.
    let topics = [
      "the history of Rome", "how bread is baked", "why the sea is salty", "how bees make honey",
      "how rain forms", "why leaves turn red", "how ships float", "why the moon has phases",
    ]
    for topic in topics where !terminal.output.contains("context full") {
      terminal.send(
        "Please explain to me in a few plain sentences, as a teacher would, \(topic), and why it matters.\r")
      mark = try terminal.waitFor("Context Window: ", after: mark)
    }
    let notice = try #require(terminal.output.range(of: "context full — "))
    #expect(terminal.output.contains("context full — summarised"))
    // The chat went on: the prompt that overflowed was answered after the notice.
    #expect(terminal.output[notice.upperBound...].contains("/160 tokens"))
    terminal.send("/bye\r")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test(.enabled(if: modelIsPresent))
  func pipedStandardInputAnswersOnceWithoutChrome() throws {
    defer { state.remove() }
    let result = try FMBinary.run(
      ["chat", "--model", "smollm2-135m", "--max-tokens", "6", "--sampling", "greedy"], input: "Say hello.",
      environment: environment)
    let text = result.standardOutput
    #expect(result.status == 0)
    #expect(!text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    #expect(!text.contains("\u{1B}"), "no escape codes into a pipe")
    #expect(!text.contains("Context Window"), "no chrome when standard output is not a terminal")
    #expect(!text.contains(">>>"))
  }

  @Test(.enabled(if: modelIsPresent))
  func toolsAreCalledShownAndSavedWithTheSession() throws {
    defer { state.remove() }
    let result = try FMBinary.run(
      [
        "chat", "--model", "smollm2-135m", "--tools", "--tool-choice", "required", "--sampling", "greedy",
        "--max-tokens", "24", "--session", "tools",
      ], input: "What is 12 times 7?", environment: environment)
    // The first call is required; whatever the small model does after it, each call is shown
    // as it happens, and a model that keeps calling ends with one of the loop guard's messages
    // (the same call a third time, or calls in every round the turn allows).
    #expect(result.standardError.contains("⚙ "), "\(result.standardError)")
    let loopGuard = ["same arguments", "rounds without answering"].contains { result.standardError.contains($0) }
    #expect(result.status == 0 || loopGuard, "\(result.standardError)")
    let data = try Data(contentsOf: state.url.appendingPathComponent("fm/sessions/tools.json"))
    let saved = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect((saved["settings"] as? [String: Any])?["tools"] as? Bool == true)
    let transcript = (saved["transcript"] as? [String: Any])?["transcript"] as? [String: Any]
    let roles = ((transcript?["entries"] as? [[String: Any]]) ?? []).compactMap { $0["role"] as? String }
    if result.status == 0 { #expect(roles.contains("tool"), "\(roles)") }
  }

  @Test(arguments: [["--temperature", "7"], ["--bogus"], ["--sampling", "top-k:0"], ["--session", "../x"]])
  func usageErrorsExit64(arguments: [String]) throws {
    defer { state.remove() }
    let result = try FMBinary.run(["chat"] + arguments + ["hello"], environment: environment)
    #expect(result.status == 64)
    let message = result.standardError
    #expect(message.hasPrefix("fm: "))
  }
}
