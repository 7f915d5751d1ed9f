import FMTestSupport
import Foundation
import FoundationModels
import ModelStore
import Testing

@testable import FMCommandLine

@Suite struct ArithmeticExpressionTests {
  @Test(arguments: [
    ("2 + 3 * 4", "14"), ("(2 + 3) * 4", "20"), ("-3 ^ 2", "-9"), ("2 ^ 3 ^ 2", "512"), ("7 % 4", "3"),
    ("1 / 4", "0.25"), ("2 ^ -1", "0.5"), ("0.1 + 0.2", "0.3"), ("-(-2)", "2"),
  ])
  func evaluates(expression: String, value: String) throws {
    #expect(ArithmeticExpression.format(try ArithmeticExpression.evaluate(expression)) == value)
  }

  @Test(arguments: ["", "2 +", "(1", "1 / 0", "2 x 3", "abs(2)", "1e999"])
  func refuses(expression: String) {
    #expect(throws: ArithmeticExpression.Failure.self) { try ArithmeticExpression.evaluate(expression) }
  }
}

@Suite final class ReadFileToolTests {
  private let directory: TemporaryDirectory
  private var folder: URL { directory.url.appendingPathComponent("work") }

  init() throws {
    directory = try TemporaryDirectory()
    let manager = FileManager.default
    try manager.createDirectory(at: folder.appendingPathComponent("notes"), withIntermediateDirectories: true)
    try "inside".write(to: folder.appendingPathComponent("notes/todo.txt"), atomically: true, encoding: .utf8)
    try "TOPSECRET".write(to: directory.url.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
    try manager.createSymbolicLink(
      at: folder.appendingPathComponent("escape.txt"),
      withDestinationURL: directory.url.appendingPathComponent("secret.txt"))
    try Data([0x00, 0x01, 0xFF]).write(to: folder.appendingPathComponent("blob.bin"))
  }

  deinit { directory.remove() }

  private func read(_ path: String) async throws -> String {
    try await ReadFileTool(folder: folder).call(arguments: .init(path: path))
  }

  @Test func readsATextFileUnderTheFolder() async throws {
    #expect(try await read("notes/todo.txt") == "inside")
    #expect(try await read("./notes/../notes/todo.txt") == "inside")
  }

  @Test(arguments: ["../secret.txt", "escape.txt", "/etc/passwd", "~/x", "notes/../../secret.txt"])
  func neverReadsOutsideTheFolder(path: String) async throws {
    let answer = try await read(path)
    #expect(answer.hasPrefix("Cannot read"))
    #expect(!answer.contains("TOPSECRET"))
  }

  @Test func refusesFoldersMissingAndBinaryFiles() async throws {
    #expect(try await read("notes").contains("folder"))
    #expect(try await read("none.txt").contains("no such file"))
    #expect(try await read("blob.bin").contains("not a text file"))
  }
}

@Suite final class ChatToolsTests {
  private let directory: TemporaryDirectory
  private let out = CapturedOutput()
  private let err = CapturedOutput()

  init() throws { directory = try TemporaryDirectory() }
  deinit { directory.remove() }

  /// A chat whose scripted model calls the calculator, then answers with what it returned.
  private func conversation(tools: Bool) -> (ChatConversation, CommandContext) {
    let call = "<tool_call>\n{\"name\": \"calculate\", \"arguments\": {\"expression\":\"12*7\"}}\n</tool_call>"
    let model = SystemLanguageModel.scripted(
      .answering { conversation in conversation.contains("<tool_response>\n84") ? ["It is 84."] : [call, "No tool."] })
    var settings = ChatSettings(model: "scripted")
    settings.tools = tools
    // Greedy: the model prefers the call, and "No tool." only next (sampled, it might pick that).
    settings.sampling = SamplingSetting(mode: .greedy, description: "greedy")
    let context = CommandContext(
      environment: [:], standardOutput: out.output, standardError: err.output,
      modelStore: ModelStore(directory: directory.url, source: LocalPartSource([:])))
    return (ChatConversation(settings: settings, model: model, tools: BuiltInTools.all(context: context)), context)
  }

  @Test func aTurnShowsEachCallAndAnswersWithTheToolsResult() async throws {
    let (conversation, context) = conversation(tools: true)
    let turn = ChatTurn(conversation: conversation, context: context, work: InterruptibleWork(), showsStatus: false)
    #expect(await turn.send("What is 12 times 7?") == .answered)
    #expect(out.text == "It is 84.\n")
    #expect(err.text.contains(#"⚙ calculate {"expression":"12*7"}"#))
    #expect(err.text.contains("→ 84"))
    // The tool entries are saved with the chat and come back with it.
    let file = directory.url.appendingPathComponent("chat.json")
    try conversation.saveFile.write(to: file)
    let restored = try ChatSaveFile.read(from: file)
    #expect(restored.transcript == conversation.transcript)
    #expect(restored.settings.usesTools)
    #expect(restored.transcript.contains { if case .toolOutput = $0 { true } else { false } })
  }

  @Test func withoutToolsTheModelCannotCallOne() async throws {
    let (conversation, context) = conversation(tools: false)
    let turn = ChatTurn(conversation: conversation, context: context, work: InterruptibleWork(), showsStatus: false)
    #expect(conversation.tools.isEmpty)
    #expect(await turn.send("What is 12 times 7?") == .answered)
    #expect(!err.text.contains("⚙"))
  }

  @Test func toolFlagsAreParsedAndShown() throws {
    let parsed = try ArgumentParser(options: ChatCommand.options, command: "fm chat").parse([
      "--tools", "--tool-choice", "required",
    ])
    let settings = try ChatSettings(parsed, saved: nil, environment: [:])
    #expect(settings.usesTools)
    #expect(settings.generationOptions.toolCallingMode == .required)
    #expect(settings.parameterLines.contains("tools            on, tool choice required"))
    let bad = try ArgumentParser(options: ChatCommand.options, command: "fm chat").parse(["--tool-choice", "maybe"])
    #expect(throws: UsageError.self) { try ChatSettings(bad, saved: nil, environment: [:]) }
  }
}
