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

  static func respond(calling calls: [String], tool: some Tool, family: ToolCallFamily = qwen3Coder) async throws
    -> LanguageModelSession
  {
    let scripted = ScriptedTokenModel.answering(
      tokens: ["<tool_call>", "</tool_call>", "<parameter=", "</parameter>", "line", "high", "low"],
      control: family.control, contextLength: 16384,
      answerMarkers: family.answerMarkers
    ) { conversation in
      conversation.contains("Sunny in Paris") ? [family.thinking + "Saved."] : calls.map { family.thinking + $0 }
    }
    let model = SystemLanguageModel(
      tokenModel: scripted, contextSize: 16384, chatTemplate: try ChatTemplateFiles.source(family.template))
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

  /// Gemma 4's members: a comma between two, a string's value between `<|"|>` quotes (a comma
  /// inside it is text), a number closed by nothing. A required member left out, a value not
  /// among the choices and a number written as a word cannot be written.
  @Test func gemma4sMembersAreSeparatedAndItsNumbersNeedNoClosing() async throws {
    let gemma = try #require(ToolCallFamily.tagged.first { $0.template.hasPrefix("google-gemma-4") })
    let quote = "<|\"|>"
    func note(_ members: String) -> String { "<|tool_call>call:saveNote{" + members + "}<tool_call|>" }
    let tool = NoteTool()
    _ = try await Self.respond(
      calling: [
        note("text:\(quote)hi, there\(quote)"),
        note("text:\(quote)hi, there\(quote),urgency:\(quote)medium\(quote)"),
        note("text:\(quote)hi, there\(quote),urgency:\(quote)low\(quote),copies:two"),
        note("text:\(quote)hi, there\(quote),urgency:\(quote)low\(quote),copies:2"),
      ], tool: tool, family: gemma)
    let notes = tool.notes.withLock { $0 }
    #expect(notes.count == 1)
    #expect(notes.first?.text == "hi, there")
    #expect(notes.first?.urgency == "low")
    #expect(notes.first?.copies == 2)
  }

  /// LFM2's Python-style members are JSON, strings double-quoted: a quote or a comma inside a
  /// string is its text, and an enumerated string is one of its values.
  @Test func lfm2sMembersAreJSON() async throws {
    let lfm2 = try #require(ToolCallFamily.tagged.first { $0.template.hasPrefix("LFM2") })
    func note(_ members: String) -> String { "<|tool_call_start|>[saveNote(" + members + ")]<|tool_call_end|>" }
    let tool = NoteTool()
    _ = try await Self.respond(
      calling: [
        note(#"text="say \"hi\", then go", urgency="medium""#),
        note(#"text="say \"hi\", then go", urgency="low", copies=2"#),
      ], tool: tool, family: lfm2)
    let notes = tool.notes.withLock { $0 }
    #expect(notes.count == 1)
    #expect(notes.first?.text == #"say "hi", then go"#)
    #expect(notes.first?.urgency == "low")
    #expect(notes.first?.copies == 2)
  }

  /// MiniCPM 5 wraps a value with a line break or `<` in CDATA, which is not part of the value.
  @Test func aCDATAWrapperIsNotPartOfTheValue() async throws {
    let miniCPM = try #require(ToolCallFamily.tagged.first { $0.template.hasPrefix("openbmb-MiniCPM5") })
    let tool = NoteTool()
    _ = try await Self.respond(
      calling: [
        #"<function name="saveNote"><param name="text"><![CDATA[a < b"#
          + "\nline two]]></param><param name=\"urgency\">low</param></function>"
      ], tool: tool, family: miniCPM)
    #expect(tool.notes.withLock { $0.first?.text } == "a < b\nline two")
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
