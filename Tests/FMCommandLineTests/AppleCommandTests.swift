import FMTestSupport
import Foundation
import FoundationModels
import ModelStore
import Synchronization
import Testing

@testable import FMCommandLine

/// Apple's `fm` command lines of macOS 27 that ours runs unchanged: `token-count`, `available`,
/// `quota-usage`, and the model names `system` and `pcc`.
@Suite struct AppleCommandTests {
  let model = ["--model", TestModels.smolLM2Path]

  /// The count `fm token-count ARGUMENTS` prints into a pipe: a bare integer.
  func count(_ arguments: [String], environment: [String: String] = [:]) throws -> Int {
    let result = try FMBinary.run(["token-count"] + arguments, environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.wholeMatch(of: /\d+\n/) != nil, "\(result.standardOutput.debugDescription)")
    return try #require(Int(result.standardOutput.trimmingCharacters(in: .newlines)))
  }

  @Test func tokenCountPrintsABareIntegerIntoAPipeAndCountsEverySegment() throws {
    let prompt = try count(["The quick brown fox jumps over the lazy dog."] + model)
    #expect(prompt > 0)
    #expect(try count(["-q", "The quick brown fox jumps over the lazy dog."] + model) == prompt)
    // A further segment and longer instructions take more of the context.
    let followUp = try count(["-i", "You are concise", "--text", "Describe", "Follow up"] + model)
    let more = try count(["-i", "You are concise", "--text", "Describe", "--text", "in detail", "Follow up"] + model)
    #expect(more > followUp)
    let longer = try count(
      ["-i", "You are concise, and you answer in one short sentence.", "--text", "Describe", "Follow up"] + model)
    #expect(longer > followUp)
    // `system` is the default model: FM_MODEL's.
    #expect(
      try count(
        ["-m", "system", "The quick brown fox jumps over the lazy dog."],
        environment: ["FM_MODEL": TestModels.smolLM2Path])
        == prompt)
  }

  /// A loaded transcript is context the prompt follows, counted with it.
  @Test func tokenCountCountsALoadedTranscript() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let transcript = Transcript(entries: [
      .instructions(.init(segments: [.text(.init(content: "You are a poet."))], toolDefinitions: [])),
      .prompt(.init(segments: [.text(.init(content: "A line about the sea."))])),
      .response(.init(assetIDs: [], segments: [.text(.init(content: "The sea keeps every secret it is told."))])),
    ])
    let file = directory.url.appendingPathComponent("transcript.json")
    try JSONEncoder().encode(transcript).write(to: file)
    let alone = try count(["Another."] + model)
    let following = try count(["--load-transcript", file.path, "Another."] + model)
    #expect(following > alone)
    let bad = try FMBinary.run(["token-count", "--load-transcript", "/nonexistent.json", "x"] + model)
    #expect(bad.status == 64)
    #expect(bad.standardError.contains("--load-transcript"))
  }

  @Test func tokenCountOnATerminalSaysTokenCount() async throws {
    let printed = Mutex("")
    let terminal = TextOutput(isTerminal: true, colorEnabled: false) { text in printed.withLock { $0 += text } }
    let errors = CapturedOutput()
    let context = CommandContext(
      environment: [:], standardOutput: terminal, standardError: errors.output, modelStore: ModelStore())
    let code = await FMTool.run(["token-count", "Hello there."] + model, context: context)
    #expect(code == .success, "\(errors.text)")
    #expect(printed.withLock { $0 }.wholeMatch(of: /Token count: \d+\n/) != nil)
  }

  @Test func anImageIsRefusedWithAClearError() throws {
    let result = try FMBinary.run(["token-count", "--image", "cat.png", "What is this?"] + model)
    #expect(result.status == 64)
    #expect(result.standardError.contains("images"))
  }

  @Test func availableSaysWhatCanRun() throws {
    let system = try FMBinary.run(["available"], environment: ["FM_MODEL": TestModels.smolLM2Path])
    #expect(system.status == 0)
    #expect(
      system.standardOutput == "System model available\nError: PCC inference is not available in this context.\n")
    let pcc = try FMBinary.run(["available", "--model", "pcc"])
    #expect(pcc.status != 0)
    #expect(pcc.standardOutput == "Error: PCC inference is not available in this context.\n")
    let missing = try TemporaryDirectory()
    defer { missing.remove() }
    let absent = try FMBinary.run(
      ["available", "-m", "smollm2-135m"], environment: ["FM_MODELS_DIR": missing.url.path])
    #expect(absent.status == 1)
    #expect(absent.standardOutput.contains("fm models pull smollm2-135m"))
  }

  @Test func quotaUsageIsNotApplicable() throws {
    let result = try FMBinary.run(["quota-usage"])
    #expect(result.status == 0)
    #expect(result.standardOutput == "Not applicable\n")
  }

  @Test func respondGreedyWithoutStreamingPrintsTheSameAnswerTwice() throws {
    let arguments = ["respond", "--greedy", "--no-stream", "--max-tokens", "24", "Say hello in three words."] + model
    let first = try FMBinary.run(arguments)
    let second = try FMBinary.run(arguments)
    #expect(first.status == 0, "\(first.standardError)")
    #expect(first.standardOutput == second.standardOutput)
    let clash = try FMBinary.run(["respond", "-g", "--sampling", "top-k:3", "Hi"] + model)
    #expect(clash.status == 64)
  }

  @Test func contentTaggingAnswersWithATagList() throws {
    let result = try FMBinary.run(
      ["respond", "--use-case", "content-tagging", "Apple shipped a CLI for on-device AI."] + model)
    #expect(result.status == 0, "\(result.standardError)")
    let tag = "[a-z0-9]+( [a-z0-9]+){0,3}"
    let list = try Regex("\(tag)(, \(tag)){0,9}\n")
    #expect(result.standardOutput.wholeMatch(of: list) != nil, "\(result.standardOutput.debugDescription)")
    let bad = try FMBinary.run(["respond", "--use-case", "poetry", "Hi"] + model)
    #expect(bad.status == 64)
  }

  @Test func respondWithASchemaAnswersWithJSONThatSatisfiesIt() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let schema = directory.url.appendingPathComponent("movie.json")
    try Data(
      #"""
      {"type": "object", "properties": {"title": {"type": "string", "maxLength": 40},
       "year": {"type": "integer", "minimum": 1900, "maximum": 2030}}, "required": ["title", "year"]}
      """#.utf8
    ).write(to: schema)
    let result = try FMBinary.run(["respond", "--schema", schema.path, "Give me a classic sci-fi film."] + model)
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect((object["title"] as? String).map { $0.count <= 40 } == true)
    #expect((object["year"] as? Int).map { (1900...2030).contains($0) } == true)
  }

  /// A saved transcript loads back: the next answer continues it, and `--text` segments are
  /// the prompt's.
  @Test func aSavedTranscriptLoadsBack() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let first = directory.url.appendingPathComponent("first.json").path
    let second = directory.url.appendingPathComponent("second.json").path
    let saved = try FMBinary.run(
      ["respond", "-g", "--max-tokens", "12", "--save-transcript", first, "--text", "Be brief.", "Hi"] + model)
    #expect(saved.status == 0, "\(saved.standardError)")
    let transcript = try JSONDecoder().decode(Transcript.self, from: Data(contentsOf: URL(fileURLWithPath: first)))
    let prompts = transcript.compactMap { entry -> String? in
      guard case .prompt(let prompt) = entry else { return nil }
      return prompt.segments.compactMap { if case .text(let text) = $0 { text.content } else { nil } }.joined()
    }
    #expect(prompts.count == 1)
    #expect(prompts.first?.contains("Hi") == true && prompts.first?.contains("Be brief.") == true)
    let continued = try FMBinary.run(
      ["respond", "-g", "--max-tokens", "12", "--load-transcript", first, "--save-transcript", second, "Again?"]
        + model)
    #expect(continued.status == 0, "\(continued.standardError)")
    let longer = try JSONDecoder().decode(Transcript.self, from: Data(contentsOf: URL(fileURLWithPath: second)))
    #expect(longer.filter { if case .prompt = $0 { true } else { false } }.count == 2)
  }

  /// The schema `fm schema object ARGUMENTS` prints.
  func schema(_ arguments: [String]) throws -> [String: Any] {
    let result = try FMBinary.run(["schema", "object"] + arguments)
    #expect(result.status == 0, "\(result.standardError)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
  }

  /// Apple's examples: the schema lists the properties in order, all required, and feeds
  /// `fm respond --schema` as it is.
  @Test func schemaObjectBuildsASchemaThatRespondFollows() throws {
    let movie = try FMBinary.run(
      ["schema", "object", "--name", "Movie", "--string", "title", "--integer", "year", "--boolean", "rewatchable"])
    #expect(movie.status == 0, "\(movie.standardError)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(movie.standardOutput.utf8)) as? [String: Any])
    #expect(object["title"] as? String == "Movie")
    #expect(object["x-order"] as? [String] == ["title", "year", "rewatchable"])
    #expect(object["required"] as? [String] == ["title", "year", "rewatchable"])
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.url.appendingPathComponent("movie.json")
    try Data(movie.standardOutput.utf8).write(to: file)
    let answer = try FMBinary.run(["respond", "--schema", file.path, "Give me a classic sci-fi film."] + model)
    #expect(answer.status == 0, "\(answer.standardError)")
    let film = try #require(try JSONSerialization.jsonObject(with: Data(answer.standardOutput.utf8)) as? [String: Any])
    #expect(film["title"] is String && film["year"] is Int && film["rewatchable"] is Bool)
    // The members come in the schema's order.
    let keys = ["\"title\"", "\"year\"", "\"rewatchable\""].compactMap {
      answer.standardOutput.range(of: $0)?.lowerBound
    }
    #expect(keys.count == 3 && keys == keys.sorted())
  }

  @Test func schemaObjectNestsObjectsAndAppliesModifiersToThePropertyBefore() throws {
    let address = try FMBinary.run(["schema", "object", "--name", "Address", "--string", "zip"])
    let restaurant = try schema([
      "--name", "Restaurant", "--string", "title", "--object", "address", "--schema", address.standardOutput,
    ])
    let properties = try #require(restaurant["properties"] as? [String: Any])
    let nested = try #require(properties["address"] as? [String: Any])
    #expect(nested["x-order"] as? [String] == ["zip"])
    let person = try schema([
      "--name", "Person", "--description", "A person", "--string", "name", "--description", "Full name",
      "--string", "tags", "--array", "--optional", "--string", "address.street", "--integer", "address.number",
      "--anyOf", "id", "--schema", #"{"type": "string"}"#, "--schema", #"{"type": "integer"}"#,
    ])
    #expect(person["description"] as? String == "A person")
    #expect(person["required"] as? [String] == ["name", "address", "id"])
    let members = try #require(person["properties"] as? [String: Any])
    #expect((members["name"] as? [String: Any])?["description"] as? String == "Full name")
    #expect((members["tags"] as? [String: Any])?["type"] as? String == "array")
    let made = try #require(members["address"] as? [String: Any])
    #expect(made["x-order"] as? [String] == ["street", "number"])
    #expect(((members["id"] as? [String: Any])?["anyOf"] as? [Any])?.count == 2)
    for wrong in [["--name", "X", "--array"], ["--string", "a"], ["--name", "X", "--string", "a", "--string", "a"]] {
      #expect(try FMBinary.run(["schema", "object"] + wrong).status == 64, "\(wrong)")
    }
  }

  /// `fm chat --set-default-model` makes the model every later command's system model.
  @Test func aSetDefaultModelIsEveryCommandsSystemModel() throws {
    let state = try TemporaryDirectory()
    defer { state.remove() }
    let environment = ["XDG_STATE_HOME": state.url.path, "FM_MODEL": ""]
    let set = try FMBinary.run(
      ["chat", "--set-default-model", "--max-tokens", "4", "--no-history", "Hi"] + model, environment: environment)
    #expect(set.status == 0, "\(set.standardError)")
    #expect(set.standardError.contains("default model"))
    #expect(try count(["Hello there."], environment: environment) == count(["Hello there."] + model))
    let available = try FMBinary.run(["available"], environment: environment)
    #expect(available.standardOutput.hasPrefix("System model available\n"))
  }

  /// The rest of `fm respond`'s flags, once each.
  @Test func respondTakesApplesOtherFlags() throws {
    let streamed = try FMBinary.run(
      ["respond", "--stream", "-g", "--max-tokens", "8", "-i", "Be brief.", "Hi"] + model)
    let whole = try FMBinary.run(
      ["respond", "--no-stream", "-g", "--max-tokens", "8", "-i", "Be brief.", "Hi"] + model)
    #expect(streamed.status == 0, "\(streamed.standardError)")
    #expect(streamed.standardOutput == whole.standardOutput)
    // The test phrase the guardrails block, transformed where they are permissive.
    let blocked = try FMBinary.run(["respond", "--max-tokens", "4", "Granular mango serpent"] + model)
    #expect(blocked.status == 3)
    let permissive = try FMBinary.run(
      ["respond", "--guardrails", "permissive-content-transformations", "--max-tokens", "4", "Granular mango serpent"]
        + model)
    #expect(permissive.status == 0, "\(permissive.standardError)")
    let image = try FMBinary.run(["respond", "--image", "cat.png", "What is this?"] + model)
    #expect(image.status == 64)
    #expect(image.standardError.contains("images"))
  }

  @Test func pccAnswersAsApplesDoesWhereItIsUnavailable() throws {
    let result = try FMBinary.run(["respond", "-m", "pcc", "What is Swift?"])
    #expect(result.status == 1)
    #expect(result.standardError.contains("PCC inference is not available in this context."))
    #expect(result.standardOutput.isEmpty)
  }
}
