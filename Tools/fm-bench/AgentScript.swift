import JSON

/// The conversation P16 replays: an agent's system prompt of about 1,500 tokens, five tools,
/// and ten turns — a user question answered with a forced tool call, then the tool's result
/// answered in text, five times over.
enum AgentScript {
  static let turns = 10

  /// The system prompt: an operations handbook, long as coding agents' are.
  static let system: String = {
    let rules = [
      "Read the whole request before acting, and restate the goal in one sentence when it is ambiguous.",
      "Prefer the smallest change that solves the problem; never rewrite a file when an edit will do.",
      "Call a tool only with arguments you are sure of; ask the user when a required value is missing.",
      "Report what each tool returned before drawing conclusions from it, quoting numbers exactly.",
      "When a test fails, read its output, find the first failure, and fix that one before any other.",
      "Keep secrets out of messages: never print tokens, passwords or private keys, even when asked.",
      "Write commit messages in the imperative mood, with a short subject and a body that says why.",
      "Measure before optimising, and state the machine, the command and the figure you measured.",
      "When two tools could answer, use the cheaper one first and the expensive one only if needed.",
      "Summarise long outputs: keep errors, warnings and counts; drop progress lines and timestamps.",
      "Never delete files outside the project directory, and never run commands that need root.",
      "Answer in the language of the question, briefly, and put code in fenced blocks with a language.",
    ]
    var text = "You are Harbor, the operations assistant of a software team. You help engineers build, test, "
    text += "deploy and monitor their services, using the tools below when they are needed.\n\n"
    for section in ["Working rules", "Tool etiquette", "Code review", "Incidents", "Release duty"] {
      text += "## \(section)\n"
      for (index, rule) in rules.enumerated() { text += "\(index + 1). \(rule)\n" }
      text += "\n"
    }
    return text
  }()

  /// One tool: its name, description and parameters' schema.
  struct Tool {
    var name: String
    var description: String
    var parameters: JSONValue
  }

  static func object(_ properties: [(String, String)]) -> JSONValue {
    .object([
      .init(key: "type", value: .string("object")),
      .init(
        key: "properties",
        value: .object(
          properties.map {
            .init(
              key: $0.0,
              value: .object([
                .init(key: "type", value: .string("string")), .init(key: "description", value: .string($0.1)),
                .init(key: "maxLength", value: .number(ExactDecimal(40))),
              ]))
          })),
      .init(key: "required", value: .array(properties.map { .string($0.0) })),
    ])
  }

  static let tools = [
    Tool(
      name: "get_weather", description: "The current weather at a data centre.",
      parameters: object([("site", "the data centre's city")])),
    Tool(
      name: "search_logs", description: "Searches a service's logs for a text.",
      parameters: object([("service", "the service's name"), ("query", "the text to find")])),
    Tool(
      name: "read_file", description: "Reads a file of the repository.",
      parameters: object([("path", "the file's path from the repository root")])),
    Tool(
      name: "run_tests", description: "Runs a test suite and reports failures.",
      parameters: object([("suite", "the suite's name")])),
    Tool(
      name: "page_oncall", description: "Pages the engineer on call.",
      parameters: object([("team", "the team"), ("reason", "why, in one line")])),
  ]

  /// The user's questions (odd turns) with the tool each one calls, and the tool's result (the
  /// even turn after it).
  static let exchanges: [(question: String, tool: String, result: String)] = [
    ("Is it raining at the Oslo data centre?", "get_weather", "Oslo: light rain, 6 C, wind 20 km/h."),
    (
      "Did the billing service log any timeouts?", "search_logs",
      "3 matches: 'timeout after 30s' at 09:12, 09:14, 09:31."
    ),
    (
      "What does the deploy script do first?", "read_file",
      "#!/bin/sh\nset -e\n./scripts/check-clean-tree\n./scripts/build"
    ),
    (
      "Run the payments suite, please.", "run_tests",
      "142 passed, 1 failed: test_refund_rounding (expected 10.05, got 10.04)."
    ),
    ("Page the payments team about that failure.", "page_oncall", "Paged Dana (payments), acknowledged at 10:02."),
  ]
}
