import Testing

@testable import FMCommandLine

@Suite struct SlashCommandTests {
  @Test(arguments: [
    ("/help", SlashCommand.help), ("/?", .help), ("/bye", .bye), ("/exit", .bye), ("/clear", .clear),
    ("/regen", .regenerate), ("/summarize", .summarize), ("/show info", .show(.info)),
    ("/show parameters", .show(.parameters)), ("/show instructions", .show(.instructions)),
    ("/show tokens", .show(.tokens)), ("/show transcript", .show(.transcript)), ("/save a.json", .save(path: "a.json")),
    ("/load a.json", .load(path: "a.json")), ("/read notes.txt", .read(path: "notes.txt", prompt: nil)),
    ("/read notes.txt what is this?", .read(path: "notes.txt", prompt: "what is this?")),
    ("/save", .save(path: nil)), ("/save work", .save(path: "work")), ("/load work", .load(path: "work")),
    ("/history", .history), ("/instructions", .show(.instructions)),
    ("/instructions Be brief.", .set(.instructions("Be brief."))),
    ("/model smollm2-135m", .set(.model("smollm2-135m"))),
    ("/set model gemma3-270m", .set(.model("gemma3-270m"))), ("/appearance light", .appearance(.light)),
    ("/appearance AUTO", .appearance(.auto)), ("exit", .bye), ("exit now", nil), ("  /bye", nil), ("hello", nil),
  ])
  func commands(line: String, command: SlashCommand?) throws {
    #expect(try SlashCommand.parse(line) == command)
  }

  @Test(arguments: [
    (
      "/set instructions Be brief. Answer in French.",
      SlashCommand.SettingChange.instructions("Be brief. Answer in French.")
    ),
    ("/set system Be brief.", .instructions("Be brief.")), ("/set instructions none", .instructions(nil)),
    ("/set temperature 0.3", .temperature(0.3)), ("/set temperature default", .temperature(nil)),
    ("/set sampling greedy", .sampling(SamplingSetting(mode: .greedy, description: "greedy"))),
    ("/set sampling system", .sampling(.system)),
    ("/set sampling top-k 10", .sampling(SamplingSetting(mode: .random(top: 10), description: "top-k 10"))),
    (
      "/set sampling top-k 5 seed 7",
      .sampling(SamplingSetting(mode: .random(top: 5, seed: 7), description: "top-k 5 seed 7"))
    ),
    (
      "/set sampling top-p 0.33 seed 42",
      .sampling(SamplingSetting(mode: .random(probabilityThreshold: 0.33, seed: 42), description: "top-p 0.33 seed 42"))
    ),
    ("/set max-tokens 100", .maximumResponseTokens(100)), ("/set max-tokens default", .maximumResponseTokens(nil)),
    ("/set context-size 2048", .contextSize(2048)), ("/set guardrails permissive", .guardrails(permissive: true)),
    ("/set guardrails default", .guardrails(permissive: false)), ("/set verbose", .verbose(true)),
    ("/set quiet", .verbose(false)), ("/set summarize-at 80", .summarizeAt(80)),
    ("/set summarize-at 80%", .summarizeAt(80)),
    ("/set summarize-at off", .summarizeAt(nil)), ("/set think on", .think(true)), ("/set think off", .think(false)),
    ("/set think default", .think(nil)),
  ])
  func settings(line: String, change: SlashCommand.SettingChange) throws {
    #expect(try SlashCommand.parse(line) == .set(change))
  }

  @Test(arguments: [
    "/frobnicate", "/usr/bin/env is a path", "/set temperature 2", "/set sampling top-k", "/set sampling greedy seed 3",
    "/set sampling top-p 1.5", "/set guardrails off", "/set colour red", "/show everything", "/save a b", "/load a b",
    "/model",
    "/read",
  ])
  func mistakesGetAOneLineHint(line: String) {
    #expect(throws: UsageError.self) { try SlashCommand.parse(line) }
    let message = (try? SlashCommand.parse(line)).map { "\($0)" } ?? ""
    #expect(!message.contains("\n"))
  }

  @Test func unknownCommandsPointToHelp() {
    #expect(
      throws: UsageError(
        "unknown command '/frobnicate'; type /help for the commands (start with a space to send text beginning with /)")
    ) {
      try SlashCommand.parse("/frobnicate now")
    }
  }

  @Test func helpMentionsEveryCommandAndSetting() {
    for word in [
      "/set instructions", "/set temperature", "greedy", "top-k", "top-p", "seed", "/set max-tokens",
      "/set context-size",
      "/set guardrails", "/set summarize-at", "/set think", "/set verbose", "/show info", "/show parameters",
      "/show instructions",
      "/show tokens", "/show transcript", "/clear", "/regen", "/summarize", "/read", "/save", "/load", "/help", "/bye",
      "\"\"\"", "--resume", "--session", "--no-history", "Ctrl+C", "Ctrl+D", "Ctrl+L", "Context Window",
    ] {
      #expect(ChatHelp.text.contains(word), "help lacks \(word)")
    }
  }
}
