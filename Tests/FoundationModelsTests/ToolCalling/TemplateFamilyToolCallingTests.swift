import FMTestSupport
import Foundation
@_spi(Engine) import FoundationModels
import Testing

@testable import InferenceEngine

/// A model family's tool calls through its own template: the model writes its calls as the
/// family does, each is generated under its tool's schema, and the calls and their outputs go
/// back through the template.
struct ToolCallFamily: Sendable, CustomStringConvertible {
  let template: String
  /// The vocabulary's control tokens (the family's own markers).
  var control: [String] = []
  /// Where the template opens the model's answer (`ScriptedTokenModel.answering`).
  let answerMarkers: [String]
  /// The model's text of a turn's calls, each a tool's name and its arguments' JSON.
  let write: @Sendable (_ calls: [(name: String, arguments: String)]) -> String
  /// What the template writes for the call `getWeather(city: "Paris")` in the next round's
  /// prompt; nil where it writes no earlier calls (Granite 3's).
  let rendered: String?
  /// Whether a turn may have more than one call.
  var parallel = true
  /// What the model writes before its answer or calls: the end of its thinking, where the
  /// template opens it.
  var thinking = ""
  /// What opens the model's answer (harmony's final channel).
  var answerHeader = ""
  var description: String { template }

  static let all: [ToolCallFamily] = [
    ToolCallFamily(
      template: "meta-llama-Llama-3.1-8B-Instruct.jinja", control: ["<|python_tag|>"],
      answerMarkers: ["<|start_header_id|>assistant<|end_header_id|>\n\n"],
      write: { "<|python_tag|>" + $0.map { #"{"name": "\#($0.name)", "parameters": \#($0.arguments)}"# }.joined() },
      rendered: #"{"name": "getWeather", "parameters": {"city": "Paris"}}"#, parallel: false),
    ToolCallFamily(
      template: "ibm-granite-granite-3.3-2B-Instruct.jinja", control: ["<|tool_call|>"],
      answerMarkers: ["<|start_of_role|>assistant<|end_of_role|>"],
      write: { "<|tool_call|>" + jsonArray($0) }, rendered: nil),
    ToolCallFamily(
      template: "NVIDIA-Nemotron-Nano-v2.jinja", answerMarkers: ["<SPECIAL_11>Assistant\n<think>\n"],
      write: { "<TOOLCALL>" + jsonArray($0) + "</TOOLCALL>" }, rendered: #"<TOOLCALL>[{"name": "getWeather""#,
      thinking: "I look it up.\n</think>\n"),
    ToolCallFamily(
      template: "unsloth-Apriel-1.5.jinja", answerMarkers: ["<|assistant|>\n"],
      write: { "<tool_calls>" + jsonArray($0, ids: true) + "</tool_calls>" },
      rendered: #"<tool_calls>[{"name": "getWeather""#),
    ToolCallFamily(
      template: "fireworks-ai-llama-3-firefunction-v2.jinja",
      answerMarkers: ["<|start_header_id|>assistant<|end_header_id|>\n\n"], write: { " functools" + jsonArray($0) },
      rendered: #" functools[{"name": "getWeather""#),
    ToolCallFamily(
      template: "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja", control: ["<|START_ACTION|>", "<|END_ACTION|>"],
      answerMarkers: ["<|CHATBOT_TOKEN|>", "<|END_THINKING|>"],
      write: { calls in
        "<|START_ACTION|>[\n    "
          + calls.enumerated().map {
            #"{"tool_call_id": "\#($0.offset)", "tool_name": "\#($0.element.name)", "parameters": \#($0.element.arguments)}"#
          }.joined(separator: ",\n    ") + "\n]<|END_ACTION|>"
      }, rendered: #""tool_name": "getWeather", "parameters": {"city": "Paris"}"#),
    ToolCallFamily(
      template: "meetkai-functionary-medium-v3.1.jinja",
      answerMarkers: ["<|start_header_id|>assistant<|end_header_id|>\n\n"],
      write: { $0.map { "<function=\($0.name)>\($0.arguments)</function>" }.joined() },
      rendered: #"<function=getWeather>{"city": "Paris"}</function>"#),
    ToolCallFamily(
      template: "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja", control: deepSeekMarkers,
      answerMarkers: ["</think>", "<｜tool▁outputs▁end｜>"],
      write: { calls in
        "<｜tool▁calls▁begin｜>"
          + calls.map {
            "<｜tool▁call▁begin｜>function<｜tool▁sep｜>\($0.name)\n```json\n\($0.arguments)\n```<｜tool▁call▁end｜>"
          }
          .joined(separator: "\n") + "<｜tool▁calls▁end｜>"
      }, rendered: "<｜tool▁sep｜>getWeather\n```json\n{\"city\": \"Paris\"}\n```"),
    ToolCallFamily(
      template: "deepseek-ai-DeepSeek-V3.1.jinja", control: deepSeekMarkers,
      answerMarkers: ["</think>", "<｜tool▁output▁end｜>"],
      write: { calls in
        "<｜tool▁calls▁begin｜>"
          + calls.map { "<｜tool▁call▁begin｜>\($0.name)<｜tool▁sep｜>\($0.arguments)<｜tool▁call▁end｜>" }.joined()
          + "<｜tool▁calls▁end｜>"
      }, rendered: "<｜tool▁call▁begin｜>getWeather<｜tool▁sep｜>{\"city\": \"Paris\"}"),
    ToolCallFamily(
      template: "moonshotai-Kimi-K2.jinja",
      control: [
        "<|tool_calls_section_begin|>", "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>",
        "<|tool_calls_section_end|>",
      ], answerMarkers: ["<|im_assistant|>assistant<|im_middle|>"],
      write: { calls in
        "<|tool_calls_section_begin|>"
          + calls.enumerated().map {
            "<|tool_call_begin|>functions.\($0.element.name):\($0.offset)<|tool_call_argument_begin|>\($0.element.arguments)<|tool_call_end|>"
          }.joined() + "<|tool_calls_section_end|>"
      }, rendered: "functions.getWeather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}"),
    ToolCallFamily(
      template: "Apertus-8B-Instruct.jinja", answerMarkers: ["<|assistant_start|>"],
      write: { calls in
        "<|tools_prefix|>[" + calls.map { #"{"\#($0.name)": \#($0.arguments)}"# }.joined(separator: ", ")
          + "]<|tools_suffix|>"
      }, rendered: #"<|tools_prefix|>[{"getWeather": {"city": "Paris"}}"#),
    ToolCallFamily(
      template: "upstage-Solar-Open-100B.jinja", answerMarkers: ["<|begin|>assistant"],
      write: { calls in
        "<|tool_calls|>"
          + calls.enumerated().map {
            "<|tool_call:begin|>call00000\($0.offset)<|tool_call:name|>\($0.element.name)<|tool_call:args|>\($0.element.arguments)<|tool_call:end|>"
          }.joined() + "<|calls|>"
      }, rendered: "<|tool_call:name|>getWeather<|tool_call:args|>{\"city\": \"Paris\"}"),
    ToolCallFamily(
      template: "GigaChat3.1-10B-A1.8B.jinja", answerMarkers: ["assistant<|role_sep|>\n"],
      write: { "<|function_call|>" + $0.map { #"{"name": "\#($0.name)", "arguments": \#($0.arguments)}"# }.joined() },
      rendered: #"<|function_call|>{"name": "getWeather", "arguments": {"city": "Paris"}}"#, parallel: false),
    ToolCallFamily(
      template: "tencent-Hy3.jinja", answerMarkers: ["<think:opensource></think:opensource>"],
      write: { calls in
        "<tool_calls:opensource>\n"
          + taggedCalls(
            calls, separator: "", opening: { "<tool_call:opensource>\($0)<tool_sep:opensource>\n" },
            member: {
              "<arg_key:opensource>\($0)</arg_key:opensource>\n<arg_value:opensource>\($1)</arg_value:opensource>\n"
            },
            closing: "</tool_call:opensource>\n") + "</tool_calls:opensource>"
      },
      rendered:
        "<tool_call:opensource>getWeather<tool_sep:opensource>\n<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Paris"
    ),
    // The thinking ends with `<|start|>assistant` too: the answer starts after a user's question
    // mark or a tool output's closing quote.
    ToolCallFamily(
      template: "openai-gpt-oss-120b.jinja",
      control: ["<|channel|>", "<|message|>", "<|end|>", "<|start|>", "<|call|>", "<|return|>", "<|constrain|>"],
      answerMarkers: ["?<|end|><|start|>assistant", "\"<|end|><|start|>assistant"],
      write: {
        $0.map { "<|channel|>commentary to=functions.\($0.name) <|constrain|>json<|message|>\($0.arguments)" }.joined()
      },
      rendered: "to=functions.getWeather<|channel|>commentary json<|message|>{\"city\": \"Paris\"}", parallel: false,
      thinking: "<|channel|>analysis<|message|>I look it up.<|end|><|start|>assistant",
      answerHeader: "<|channel|>final<|message|>"),
  ]

  static let tagged: [ToolCallFamily] = [
    ToolCallFamily(
      template: "Qwen3-Coder.jinja", answerMarkers: ["<|im_start|>assistant\n"],
      write: xmlFunctionCalls, rendered: "<function=getWeather>\n<parameter=city>\nParis\n</parameter>"),
    ToolCallFamily(
      template: "Qwen3.5-4B.jinja", answerMarkers: ["<|im_start|>assistant\n<think>\n"],
      write: xmlFunctionCalls, rendered: "<function=getWeather>\n<parameter=city>\nParis\n</parameter>",
      thinking: "I look it up.\n</think>\n\n"),
    ToolCallFamily(
      template: "GLM-4.6.jinja", answerMarkers: ["<|assistant|>"],
      write: {
        taggedCalls(
          $0, opening: { "<tool_call>\($0)\n" }, member: { "<arg_key>\($0)</arg_key>\n<arg_value>\($1)</arg_value>\n" },
          closing: "</tool_call>")
      }, rendered: "<tool_call>getWeather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>"),
    ToolCallFamily(
      template: "google-gemma-4-31B-it.jinja", control: ["<|tool_call>", "<tool_call|>", "<|\"|>"],
      answerMarkers: ["<|channel>thought\n<channel|>", "<tool_response|>"], write: gemma4Calls,
      rendered: "<|tool_call>call:getWeather{city:<|\"|>Paris<|\"|>}<tool_call|>"),
    // Gemma 4's first template reads the outputs from the assistant's turn (`tool_responses`).
    ToolCallFamily(
      template: "google-gemma-4-31B-it-interleaved.jinja", control: ["<|tool_call>", "<tool_call|>", "<|\"|>"],
      answerMarkers: ["<|channel>thought\n<channel|>", "<tool_response|>"], write: gemma4Calls,
      rendered: "<tool_call|><|tool_response>response:getWeather{value:<|\"|>Sunny in Paris<|\"|>}<tool_response|>"),
    ToolCallFamily(
      template: "LFM2.5-8B-A1B.jinja", control: ["<|tool_call_start|>", "<|tool_call_end|>"],
      answerMarkers: ["<|im_start|>assistant\n"],
      write: { calls in
        "<|tool_call_start|>["
          + calls.map { call in
            var members: [String] = []
            _ = typedMembers(call.arguments) { key, value, isString in
              members.append(key + "=" + (isString ? GeneratedContent(kind: .string(value)).jsonString : value))
              return ""
            }
            return call.name + "(" + members.joined(separator: ", ") + ")"
          }.joined(separator: ", ") + "]<|tool_call_end|>"
      }, rendered: "<|tool_call_start|>[getWeather(city='Paris')"),
    ToolCallFamily(
      template: "openbmb-MiniCPM5-1B.jinja", answerMarkers: ["<|im_start|>assistant\n"],
      write: {
        taggedCalls(
          $0, opening: { "<function name=\"\($0)\">" }, member: { "<param name=\"\($0)\">\($1)</param>" },
          closing: "</function>")
      }, rendered: "<function name=\"getWeather\"><param name=\"city\">Paris</param></function>",
      thinking: "<think>I look it up.</think>\n\n"),
    ToolCallFamily(
      template: "GLM-4.7-Flash.jinja", answerMarkers: ["<|assistant|><think>"],
      write: {
        taggedCalls(
          $0, separator: "", opening: { "<tool_call>\($0)" },
          member: { "<arg_key>\($0)</arg_key><arg_value>\($1)</arg_value>" }, closing: "</tool_call>")
      }, rendered: "<tool_call>getWeather<arg_key>city</arg_key><arg_value>Paris</arg_value>",
      thinking: "I look it up.</think>"),
    ToolCallFamily(
      template: "MiniMax-M2.jinja", answerMarkers: ["]~b]ai\n<think>\n"],
      write: { calls in
        "<minimax:tool_call>\n"
          + taggedCalls(
            calls, separator: "", opening: { "<invoke name=\"\($0)\">\n" },
            member: { "<parameter name=\"\($0)\">\($1)</parameter>\n" }, closing: "</invoke>\n")
          + "</minimax:tool_call>"
      }, rendered: "<invoke name=\"getWeather\">\n<parameter name=\"city\">Paris</parameter>",
      thinking: "I look it up.\n</think>\n\n"),
    ToolCallFamily(
      template: "ByteDance-Seed-OSS.jinja", answerMarkers: ["<seed:bos>assistant\n"],
      write: {
        taggedCalls(
          $0, opening: { "<seed:tool_call>\n<function=\($0)>\n" }, member: { "<parameter=\($0)>\($1)</parameter>\n" },
          closing: "</function>\n</seed:tool_call>")
      }, rendered: "<function=getWeather>\n<parameter=city>Paris</parameter>"),
    ToolCallFamily(
      template: "MiniMax-M1.jinja", answerMarkers: ["ai name=assistant\n"],
      write: { calls in
        "<tool_calls>\n" + calls.map { #"{"name": "\#($0.name)", "arguments": \#($0.arguments)}"# + "\n" }.joined()
          + "</tool_calls>"
      }, rendered: #"<tool_calls>\#n{"name": "getWeather", "arguments": {"city": "Paris"}}"#),
    ToolCallFamily(
      template: "deepseek-ai-DeepSeek-V3.2.jinja", answerMarkers: ["<think></think>"],
      write: { dsml("function_calls", $0) },
      rendered: "<｜DSML｜invoke name=\"getWeather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Paris"),
    ToolCallFamily(
      template: "deepseek-ai-DeepSeek-V4.jinja", answerMarkers: ["<｜Assistant｜></think>"],
      write: { dsml("tool_calls", $0) },
      rendered: "<｜DSML｜invoke name=\"getWeather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Paris"),
  ]

  /// Qwen3-Coder's and Qwen3.5's calls.
  static func xmlFunctionCalls(_ calls: [(name: String, arguments: String)]) -> String {
    taggedCalls(
      calls, opening: { "<tool_call>\n<function=\($0)>\n" }, member: { "<parameter=\($0)>\n\($1)\n</parameter>\n" },
      closing: "</function>\n</tool_call>")
  }

  /// Calls whose arguments are tagged members: each call `opening(name)`, its members, then
  /// `closing`, `separator` between calls.
  static func taggedCalls(
    _ calls: [(name: String, arguments: String)], separator: String = "\n", opening: (String) -> String,
    member: (String, String) -> String, closing: String
  ) -> String {
    calls.map { opening($0.name) + members($0.arguments, member) + closing }.joined(separator: separator)
  }

  /// A call's arguments (a JSON object) as tagged members: each member's name and its value,
  /// a string's raw, any other's JSON.
  static func members(_ arguments: String, _ member: (String, String) -> String) -> String {
    typedMembers(arguments) { key, value, _ in member(key, value) }
  }

  /// As `members`, saying whether the value is a string's.
  static func typedMembers(_ arguments: String, _ member: (String, String, Bool) -> String) -> String {
    guard let content = try? GeneratedContent(json: arguments), case .structure(let properties, let keys) = content.kind
    else { return "" }
    return keys.compactMap { key in
      guard let value = properties[key] else { return nil }
      if case .string(let text) = value.kind { return member(key, text, true) }
      return member(key, value.jsonString, false)
    }.joined()
  }

  /// DeepSeek V3.2's and V4's DSML block `block`.
  static func dsml(_ block: String, _ calls: [(name: String, arguments: String)]) -> String {
    "<｜DSML｜\(block)>\n"
      + calls.map { call in
        "<｜DSML｜invoke name=\"\(call.name)\">\n"
          + typedMembers(call.arguments) {
            "<｜DSML｜parameter name=\"\($0)\" string=\"\($2)\">\($1)</｜DSML｜parameter>\n"
          } + "</｜DSML｜invoke>\n"
      }.joined() + "</｜DSML｜\(block)>"
  }

  /// Gemma 4's calls: `<|tool_call>call:NAME{KEY:VALUE,…}<tool_call|>`, a string in `<|"|>` quotes.
  static func gemma4Calls(_ calls: [(name: String, arguments: String)]) -> String {
    calls.map { call in
      var members: [String] = []
      _ = typedMembers(call.arguments) { key, value, isString in
        members.append(key + ":" + (isString ? "<|\"|>\(value)<|\"|>" : value))
        return ""
      }
      return "<|tool_call>call:\(call.name){" + members.joined(separator: ",") + "}<tool_call|>"
    }.joined()
  }

  static let deepSeekMarkers = [
    "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>",
  ]

  /// `ids`: each call with its id (`"id": "call00000"`), as Apriel's calls are written.
  static func jsonArray(_ calls: [(name: String, arguments: String)], ids: Bool = false) -> String {
    let written = calls.enumerated().map { index, call in
      #"{"name": "\#(call.name)", "arguments": \#(call.arguments)"# + (ids ? #", "id": "call0000\#(index)"}"# : "}")
    }
    return "[" + written.joined(separator: ", ") + "]"
  }

  /// A scripted model of the family: it writes one of `calls` (each a turn's calls) until the
  /// conversation holds every text of `done` (and, for a call to `getWeather(city: "Paris")`,
  /// the call rendered back), then "It is sunny.".
  func model(calling calls: [[(name: String, arguments: String)]], done: [String] = ["Sunny in Paris"]) throws
    -> SystemLanguageModel
  {
    // Calls are generated in the spacing the template renders arguments in.
    let spaces = try ChatTemplate(source: ChatTemplateFiles.source(template)).spacesCallArguments
    let texts = calls.map { calls in
      thinking + write(calls.map { ($0.name, spaces ? TemplateJSON.spaced($0.arguments) : $0.arguments) })
    }
    let answer = thinking + answerHeader + "It is sunny."
    let rendered = done.contains("Sunny in Paris") ? rendered : nil
    let scripted = ScriptedTokenModel.answering(
      // The thinking's and Hermes' tags are one token each, as in the families' vocabularies (and
      // DeepSeek's wide bars are whole characters).
      tokens: [
        "get", "Weather", "Time", "city", "offset", "Paris", "Rome", "{\"", "name", "\": ", "Sunny", "<think>",
        "</think>",
        "<tool_call>", "</tool_call>", "｜DSML｜",
      ],
      control: control, contextLength: 16384, answerMarkers: answerMarkers
    ) { conversation in
      let answered = done.allSatisfy(conversation.contains) && rendered.map(conversation.contains) != false
      return answered ? [answer] : texts
    }
    // Command R7B's template alone is 6,000 bytes, a scripted token each.
    return SystemLanguageModel(
      tokenModel: scripted, contextSize: 16384, chatTemplate: try ChatTemplateFiles.source(template))
  }
}

@Suite struct TemplateFamilyToolCallingTests {
  @Test(arguments: ToolCallFamily.all + ToolCallFamily.tagged)
  func aCallRunsTheToolAndGoesBackThroughTheTemplate(family: ToolCallFamily) async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: try family.model(calling: [[("getWeather", #"{"city":"Paris"}"#)]]), tools: [weather, ClockTool()])
    let response = try await session.respond(to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
    #expect(weather.cities.withLock { $0 } == ["Paris"])
    #expect(response.content == "It is sunny.")
    let call = try #require(toolCalls(in: session).first?.first)
    #expect(call.toolName == "getWeather")
    #expect(call.arguments.jsonString == #"{"city":"Paris"}"#)
    // The thinking is reasoning, never answer text.
    let reasoning = session.transcript.contains { if case .reasoning = $0 { true } else { false } }
    #expect(reasoning == !family.thinking.isEmpty)
  }

  @Test(arguments: (ToolCallFamily.all + ToolCallFamily.tagged).filter(\.parallel))
  func parallelCallsAllRun(family: ToolCallFamily) async throws {
    let weather = WeatherTool()
    let session = LanguageModelSession(
      model: try family.model(
        calling: [[("getWeather", #"{"city":"Paris"}"#), ("getWeather", #"{"city":"Rome"}"#)]],
        done: ["Sunny in Paris", "Sunny in Rome"]),
      tools: [weather])
    let response = try await session.respond(
      to: "Weather in Paris and Rome?", options: GenerationOptions(samplingMode: .greedy))
    // Both ran (at once, so in either order); the turn's calls are in the order written.
    #expect(weather.cities.withLock { $0 }.sorted() == ["Paris", "Rome"])
    let calls = try #require(toolCalls(in: session).first)
    #expect(calls.map(\.arguments.jsonString) == [#"{"city":"Paris"}"#, #"{"city":"Rome"}"#])
    #expect(response.content == "It is sunny.")
  }

  /// The model's first choices name no tool, pass a string where an integer belongs and a
  /// number out of the guide's range: none can be written, and the call that comes out decodes.
  @Test(arguments: ToolCallFamily.all + ToolCallFamily.tagged)
  func aCallThatWouldBreakTheSchemaCannotBeProduced(family: ToolCallFamily) async throws {
    let session = LanguageModelSession(
      model: try family.model(
        calling: [
          [("getTimes", #"{"offset":1}"#)], [("getTime", #"{"offset":"one"}"#)], [("getTime", #"{"offset":15}"#)],
          [("getTime", #"{"offset":1}"#)],
        ],
        done: ["12:00"]),
      tools: [WeatherTool(), ClockTool()])
    _ = try await session.respond(to: "Time?", options: GenerationOptions(samplingMode: .greedy))
    let call = try #require(toolCalls(in: session).first?.first)
    #expect(call.toolName == "getTime")
    #expect((-12...14).contains(try Zone(call.arguments).offset))
  }
}
