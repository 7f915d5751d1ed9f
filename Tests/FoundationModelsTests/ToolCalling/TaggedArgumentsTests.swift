import FMTestSupport
import Foundation
@_spi(Engine) import FoundationModels
import Synchronization
import Testing

@Generable struct Note {
  @Guide(description: "The note's text") var text: String
  @Guide(description: "How urgent", .anyOf(["low", "high"])) var urgency: String
  var copies: Int?
}

/// Keeps the notes it is given.
final class NoteTool: Tool, Sendable {
  let name = "saveNote"
  let description = "Saves a note."
  let notes = Mutex<[Note]>([])

  func call(arguments: Note) async throws -> String {
    notes.withLock { $0.append(arguments) }
    return "Sunny in Paris"
  }
}

@Generable struct Code {
  @Guide(description: "A code", .pattern(/[A-Z]{3}/)) var code: String
}

struct CodeTool: Tool {
  let name = "checkCode"
  let description = "Checks a code."
  func call(arguments: Code) async throws -> String { "fine" }
}

/// Arguments written as tagged members (Qwen3-Coder's `<parameter=…>`): raw text values,
/// enumerated values, optional and required members.
@Suite struct TaggedArgumentsTests {
  static let qwen3Coder = ToolCallFamily.tagged[0]

  static func note(_ members: String) -> String {
    "<tool_call>\n<function=saveNote>\n" + members + "</function>\n</tool_call>"
  }

  static func respond(calling calls: [String], tool: some Tool) async throws -> LanguageModelSession {
    let scripted = ScriptedTokenModel.answering(
      tokens: ["<tool_call>", "</tool_call>", "<parameter=", "</parameter>", "line", "high", "low"],
      contextLength: 16384,
      answerMarkers: qwen3Coder.answerMarkers
    ) { conversation in conversation.contains("Sunny in Paris") ? ["Saved."] : calls }
    let model = SystemLanguageModel(
      tokenModel: scripted, contextSize: 16384, chatTemplate: try ChatTemplateFiles.source(qwen3Coder.template))
    let session = LanguageModelSession(model: model, tools: [tool])
    _ = try await session.respond(to: "Note it.", options: GenerationOptions(samplingMode: .greedy))
    return session
  }

  /// A string's value runs over lines, up to its closing tag; the optional member may be left out.
  @Test func aRawTextValueRunsOverLines() async throws {
    let tool = NoteTool()
    _ = try await Self.respond(
      calling: [
        Self.note("<parameter=text>\nline one\nline two\n</parameter>\n<parameter=urgency>\nhigh\n</parameter>\n")
      ], tool: tool)
    let note = try #require(tool.notes.withLock { $0.first })
    #expect(note.text == "line one\nline two")
    #expect(note.urgency == "high")
    #expect(note.copies == nil)
  }

  /// The model's first choices leave out a required member, give an enumerated one a value
  /// not among its choices and a number where the schema has an integer written as text: none
  /// can be written.
  @Test func aCallThatBreaksTheSchemaCannotBeWritten() async throws {
    let tool = NoteTool()
    _ = try await Self.respond(
      calling: [
        Self.note("<parameter=text>\nhi\n</parameter>\n"),
        Self.note("<parameter=text>\nhi\n</parameter>\n<parameter=urgency>\nmedium\n</parameter>\n"),
        Self.note(
          "<parameter=text>\nhi\n</parameter>\n<parameter=urgency>\nlow\n</parameter>\n<parameter=copies>\ntwo\n</parameter>\n"
        ),
        Self.note(
          "<parameter=text>\nhi\n</parameter>\n<parameter=urgency>\nlow\n</parameter>\n<parameter=copies>\n2\n</parameter>\n"
        ),
      ], tool: tool)
    let note = try #require(tool.notes.withLock { $0.first })
    #expect(note.text == "hi")
    #expect(note.urgency == "low")
    #expect(note.copies == 2)
  }

  /// A pattern cannot be kept on raw text: the tool is refused with a clear error, not called
  /// with a value that breaks it.
  @Test func aStringPatternIsRefused() async throws {
    let error = await #expect(throws: LanguageModelSession.GenerationError.self) {
      _ = try await Self.respond(
        calling: ["<tool_call>\n<function=checkCode>\n<parameter=code>\nabc\n</parameter>\n</function>\n</tool_call>"],
        tool: CodeTool())
    }
    guard case .unsupportedGuide(let context)? = error else {
      Issue.record("expected unsupportedGuide, got \(String(describing: error))")
      return
    }
    #expect(context.debugDescription.contains("code"))
  }
}
