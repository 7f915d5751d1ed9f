import FMTestSupport
import Foundation
import Testing

/// `fm respond`, `fm generate` and `fm menu` end to end on the small model.
@Suite struct GenerationCommandTests {
  let model = ["--model", TestModels.smolLM2Path]

  /// The reply's length depends on the CPU (llama.cpp is built for it), so the budget is
  /// checked against a longer run: 12 tokens give the first 12 of it, or all of it when the
  /// model ends sooner.
  @Test func respondStreamsAnAnswerAndReportsUsage() throws {
    func respond(maxTokens: Int) throws -> (text: String, printed: String, generated: Int?) {
      let result = try FMBinary.run(
        ["respond", "--sampling", "greedy", "--max-tokens", "\(maxTokens)", "-v", "Say hello."] + model)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(result.standardError.contains(/prompt \d+ tokens \(\d+ evaluated, \d+ cached\)/))
      let generated = result.standardError.firstMatch(of: /generated (\d+) tokens?/).flatMap { Int($0.1) }
      // The answer as streamed, without the line break `respond` ends it with.
      let printed = result.standardOutput.hasSuffix("\n") ? String(result.standardOutput.dropLast()) : ""
      return (result.standardOutput.trimmingCharacters(in: .newlines), printed, generated)
    }
    let short = try respond(maxTokens: 12)
    let long = try respond(maxTokens: 48)
    // Whatever the tokens are on this CPU, those generated were streamed to standard output.
    let shortCount = try #require(short.generated)
    #expect(short.printed.isEmpty == (shortCount == 0), "\(shortCount) tokens printed as \(short.printed.debugDescription)")
    let longCount = try #require(long.generated)
    #expect(short.generated == min(12, longCount))
    #expect(long.text.hasPrefix(short.text))
  }

  @Test func respondReadsAPipedPrompt() throws {
    let piped = try FMBinary.run(["respond", "--sampling", "greedy", "--max-tokens", "8"] + model, input: "Say hello.")
    let argument = try FMBinary.run(["respond", "--sampling", "greedy", "--max-tokens", "8", "Say hello."] + model)
    #expect(piped.status == 0)
    #expect(piped.standardOutput == argument.standardOutput)
  }

  @Test func aGuardrailViolationExitsWithThreeAndSaysWhichSideAndCategory() throws {
    let result = try FMBinary.run(["respond", "--max-tokens", "4", "Granular mango serpent"] + model)
    #expect(result.status == 3, "\(result.standardError)")
    #expect(result.standardError.contains("guardrail violation"))
    #expect(result.standardError.contains("input") && result.standardError.contains("test phrase"))
    #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    let chat = try FMBinary.run(["chat", "--max-tokens", "4", "--no-history", "Granular mango serpent"] + model)
    #expect(chat.status == 3, "\(chat.standardError)")
    let permissive = try FMBinary.run(
      ["chat", "--max-tokens", "4", "--no-history", "--guardrails", "permissive", "Granular mango serpent"] + model)
    #expect(permissive.status == 0, "\(permissive.standardError)")
  }

  @Test func respondWithoutAPromptIsAUsageError() throws {
    let result = try FMBinary.run(["respond"] + model)
    #expect(result.status == 64)
  }

  /// The schema bounds the whole output: a city of at most 24 characters (at most 12 bytes
  /// each, written as a surrogate pair's escapes), a population of at most nine digits and the
  /// fixed text, at most 322 bytes, and a token is at least one byte: 340 tokens always suffice,
  /// whatever the model writes on this CPU, so the JSON is whole without the budget's closing.
  @Test func generateOutputsJSONOfTheSchema() throws {
    let schema = FileManager.default.temporaryDirectory.appendingPathComponent("fm-schema-\(UUID().uuidString).json")
    try
      #"{"type":"object","properties":{"city":{"type":"string","maxLength":24},"population":{"type":"integer","minimum":0,"maximum":999999999}},"required":["city","population"],"additionalProperties":false}"#
      .write(to: schema, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: schema) }
    let result = try FMBinary.run(
      ["generate", "--schema", schema.path, "--max-tokens", "340", "--sampling", "greedy", "A city."] + model)
    #expect(result.status == 0, "\(result.standardError)")
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    #expect((object?["city"] as? String)?.count ?? 99 <= 24)
    // Read as a number, not as a Swift Int.
    #expect((0...999_999_999.0).contains((object?["population"] as? NSNumber)?.doubleValue ?? -1))
    #expect(result.standardOutput.hasPrefix(#"{"city":"#), "declaration order")
  }

  /// A schema whose only property is a free string: the model decides how long it runs.
  static let longText =
    #"{"type":"object","properties":{"story":{"type":"string"}},"required":["story"],"additionalProperties":false}"#

  @Test func generateHonoursMaxTokensAndClosesTheJSON() throws {
    let schema = FileManager.default.temporaryDirectory.appendingPathComponent("fm-schema-\(UUID().uuidString).json")
    try Self.longText.write(to: schema, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: schema) }
    let result = try FMBinary.run(
      ["generate", "--schema", schema.path, "--max-tokens", "24", "--sampling", "greedy", "-v", "A long story."] + model
    )
    #expect(result.status == 0, "\(result.standardError)")
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    #expect(object?["story"] is String)
    let generated = result.standardError.firstMatch(of: /generated (\d+) tokens?/).flatMap { Int($0.1) }
    #expect((1...24).contains(generated ?? 0), "\(result.standardError)")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: TestModels.smolLM2Path)))
  func generateShowsProgressOnATerminal() throws {
    let schema = FileManager.default.temporaryDirectory.appendingPathComponent("fm-schema-\(UUID().uuidString).json")
    try Self.longText.write(to: schema, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: schema) }
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["TERM"] = "xterm"
    let terminal = try PseudoTerminalProcess(
      FMBinary.url(),
      arguments: ["generate", "--schema", schema.path, "--max-tokens", "200", "A very long story."] + model,
      environment: environment)
    _ = try terminal.waitFor("at most 200 tokens · Ctrl+C stops")
    #expect(try terminal.waitForExit(timeout: 120) == 0)
    #expect(terminal.output.contains("generating · "))
    // The spinner is erased; the JSON is what remains on the last line.
    let last = terminal.output.split(separator: "\n").last.map(String.init) ?? ""
    #expect(last.contains(#"{"story":""#), "\(terminal.output)")
  }

  @Test func generateNamesAnUnsupportedKeyword() throws {
    let schema = FileManager.default.temporaryDirectory.appendingPathComponent("fm-schema-\(UUID().uuidString).json")
    try #"{"type":"string","format":"regex"}"#.write(to: schema, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: schema) }
    let result = try FMBinary.run(["generate", "--schema", schema.path, "A number."] + model)
    #expect(result.status == 1)
    #expect(result.standardError.contains("format:regex"))
  }

  @Test func menuPicksOneOfTheIngredients() throws {
    let result = try FMBinary.run(
      ["menu", "--ingredients", "lamb, salmon, duck", "--json", "--max-tokens", "60"] + model)
    #expect(result.status == 0, "\(result.standardError)")
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    #expect(["lamb", "salmon", "duck"].contains(object?["ingredients"] as? String ?? ""))
    #expect(object?["price"] is NSNumber)
  }
}
