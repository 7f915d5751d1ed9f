import FMTestSupport
import Foundation
import InferenceEngine
import JSON
import Testing

@testable import FoundationModels

/// Every template of the pinned llama.cpp whose call syntax is read (`ChatTemplate.toolSyntax`):
/// the calls it renders for an earlier turn are read back, as the model's own would be, by the
/// reader of that syntax's format. A template taken for the wrong family, or a family's format
/// that differs from what its template writes, fails here.
@Suite struct TemplateCallReadBackTests {
  static let tool = #"""
    {"type": "function", "function": {"name": "getWeather", "description": "The weather in a city",
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
    """#
  /// A turn of calls, one to each city, and their outputs, with the ids `ids`.
  static func conversation(cities: [String], ids: [String]) -> [ChatMessage] {
    return [ChatMessage(role: .user, content: "Weather in Paris and Rome?")]
      + [
        ChatMessage(
          role: .assistant, content: "",
          toolCalls: zip(cities, ids).map { .init(name: "getWeather", argumentsJSON: #"{"city":"\#($0)"}"#, id: $1) })
      ]
      + zip(cities, ids).map {
        ChatMessage(role: .tool, content: "Sunny in \($0)", toolName: "getWeather", toolCallID: $1)
      }
  }
  /// Templates whose past calls are not read back, and why. Each must still fail, so the list
  /// stays true.
  static let unread: [String: String] = [
    "openai-gpt-oss-120b.jinja":
      "renders a past call with the recipient before the channel (` to=functions.NAME<|channel|>commentary json`), which harmony allows but the model writes the other way round, as read",
    "ibm-granite-granite-3.3-2B-Instruct.jinja": "renders no earlier calls, only their outputs",
    "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja":
      "renders a turn's calls only where its content is None; a call turn's content is given as an empty string, as transformers users give it, so its calls are left out",
    "LFM2.5-8B-A1B.jinja":
      "renders strings single-quoted and unescaped (`city='Paris'`); the format writes every value as JSON (`city=\"Paris\"`), so that a quote inside a string cannot end it",
    "MiniMax-M3.jinja":
      "MiniMax M3's `]<]minimax[>[`-prefixed calls, whose members' tags are named for them (`<city>Paris</city>`), are not read yet: the template is taken for Hermes'",
  ]

  @Test func everyTemplatesCallsReadBack() throws {
    var read: [String] = []
    for name in try ChatTemplateFiles.names() {
      let template = try ChatTemplate(source: ChatTemplateFiles.source(name), bosToken: "<s>", eosToken: "</s>")
      guard template.toolSyntax != .generic else { continue }
      let format = ToolCallFormat.of(template.toolSyntax)
      let text: String
      do {
        let cities = format.singleCall ? ["Paris"] : ["Paris", "Rome"]
        // Where a format writes ids, the ones it writes, so the template's text of a call can be
        // the format's; elsewhere ids as the transcript gives them (nine letters and digits).
        let placeholder = format.markers.joined().contains("{id10}") ? "{id10}" : "{id}"
        let ids = cities.indices.map { ToolCallFormat.text(placeholder, call: $0) }
        text = try template.render(Self.conversation(cities: cities, ids: ids), tools: [Self.tool]).text
      } catch {
        Issue.record("\(name) does not render a turn's calls: \(error)")
        continue
      }
      let turn = try #require(text.range(of: "Weather in Paris and Rome?"), "\(name)").upperBound
      var splitter = ToolCallTextSplitter(
        opening: format.readsOwnForm ? CallOpening(toolNames: ["getWeather"], everyLine: true) : nil, format: format,
        textMembers: format.taggedArguments == nil ? [:] : ["getWeather": ["city"]])
      let calls = splitter.feed(String(text[turn...])).compactMap { piece -> String? in
        guard case .call(let name, let arguments) = piece else { return nil }
        return name + ((try? JSONValue(parsing: arguments).compactText) ?? arguments)
      }
      let expected = [#"getWeather{"city":"Paris"}"#, #"getWeather{"city":"Rome"}"#].prefix(format.singleCall ? 1 : 2)
      let readBack = calls.prefix(expected.count) == expected
      if let why = Self.unread[name] {
        #expect(!readBack, "\(name) reads back now: take it off the list (\(why))")
        continue
      }
      #expect(readBack, "\(name) (\(template.toolSyntax)): read \(calls) from \(String(text[turn...]).prefix(400))")
      read.append(name)
    }
    print("calls read back from \(read.count) templates")
  }
}
