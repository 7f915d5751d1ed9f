import FMTestSupport
import Foundation
import JSON
import Testing

@testable import InferenceEngine

/// The variables beyond `transformers`' own that templates get: calls' arguments in the form a
/// template renders, and the conventional `datetime` and `functions`.
@Suite struct TemplateVariablesTests {
  static let call = ChatMessage(
    role: .assistant, content: "", toolCalls: [.init(name: "getWeather", argumentsJSON: #"{"city":"Paris"}"#)])
  /// Noon UTC: the same day in every time zone within eleven hours of it.
  static let noon = Date(timeIntervalSince1970: 1_699_963_200)

  /// llama.cpp's probe: functionary v3.2 adds arguments to text, Qwen2.5 writes them with `tojson`.
  @Test func theProbeFindsTemplatesThatTakeArgumentsAsText() throws {
    let functionary = try JinjaTemplate(source: ChatTemplateFiles.source("meetkai-functionary-medium-v3.2.jinja"))
    let qwen = try JinjaTemplate(source: ChatTemplateFiles.source("Qwen-Qwen2.5-7B-Instruct.jinja"))
    #expect(functionary.takesStringArguments)
    #expect(!qwen.takesStringArguments)
    #expect(try !JinjaTemplate(source: "{{ messages[0].content }}").takesStringArguments)
  }

  /// A template that adds a call's arguments to text gets their JSON text; one that writes them
  /// with `tojson` gets the object.
  @Test func argumentsComeInTheFormTheTemplateRenders() throws {
    func template(_ arguments: String) throws -> ChatTemplate {
      try ChatTemplate(
        source: "{% if tools %}{% endif %}{% for m in messages %}{% if m.tool_calls %}{% for c in m.tool_calls %}"
          + "<tool_call>{{ c.function.name + ' ' + \(arguments) }}</tool_call>{% endfor %}{% endif %}{% endfor %}")
    }
    let adding = try template("c.function.arguments")
    let writing = try template("c.function.arguments | tojson")
    #expect(adding.toolSyntax == .hermes)
    #expect(try adding.render([Self.call]).text == #"<tool_call>getWeather {"city":"Paris"}</tool_call>"#)
    #expect(try writing.render([Self.call]).text == #"<tool_call>getWeather {"city": "Paris"}</tool_call>"#)
  }

  /// `datetime` is the day, `functions` the tools as indented JSON (empty without tools).
  @Test func templatesGetTheDayAndTheFunctions() throws {
    let chat = try ChatTemplate(source: "{{ datetime }}|{{ functions }}")
    #expect(try chat.render([], now: Self.noon).text == "Nov 14 2023|")
    let tool = try JSONValue(parsing: #"{"name":"f","parameters":{"type":"object","properties":{}}}"#)
    let context = try chat.context([], tools: [tool], addGenerationPrompt: true, variables: [], now: Self.noon)
    #expect(
      context["functions"]?["__input__"]
        == .string(
          "[\n  {\n    \"name\": \"f\",\n    \"parameters\": {\n      \"type\": \"object\",\n"
            + "      \"properties\": {}\n    }\n  }\n]"))
  }

  /// FireFunction v2 reads both: its system turn ends with the day instead of an empty one.
  @Test func fireFunctionRendersTheDay() throws {
    let chat = try ChatTemplate(source: ChatTemplateFiles.source("fireworks-ai-llama-3-firefunction-v2.jinja"))
    let text = try chat.render([ChatMessage(role: .user, content: "Hi")], now: Self.noon).text
    #expect(text.contains("Available functions as JSON spec:\n\nToday is Nov 14 2023.<|eot_id|>"))
  }

  /// Indented JSON as `json.dumps(value, indent=2, ensure_ascii=False)` writes it.
  @Test func indentedJSONIsWrittenAsPythonWritesIt() throws {
    let value = try JSONValue(parsing: #"{"a":[1,-2.5,"x\"y\n",[]],"b":{},"c":{"d":null,"e":true},"é":"ü"}"#)
    #expect(
      value.indentedText()
        == "{\n  \"a\": [\n    1,\n    -2.5,\n    \"x\\\"y\\n\",\n    []\n  ],\n  \"b\": {},\n  \"c\": {\n    \"d\": null,\n    \"e\": true\n  },\n  \"é\": \"ü\"\n}"
    )
    #expect(JSONValue.array([]).indentedText() == "[]")
  }
}
