import Foundation
import JSON

extension ChatTemplate {
  /// The tool-call syntax of `template` (whose source is `source`): read from its text, and
  /// where one family's templates write calls in more than one layout, from a call it renders.
  static func toolSyntax(of source: String, rendering template: JinjaTemplate, bosToken: String, eosToken: String)
    -> ToolSyntax
  {
    let syntax = toolSyntax(of: source)
    guard syntax == .glm,
      let call = renderedCall(#"{"x":"y"}"#, by: template, bosToken: bosToken, eosToken: eosToken)
    else {
      return syntax
    }
    return call.contains("<tool_call>f<arg_key>x</arg_key><arg_value>") ? .glmCompact : .glm
  }

  /// Whether `template` renders a call's JSON arguments with a space after each `:` and `,`, as
  /// Jinja's `tojson` writes them (`{"x": "y", "z": [1, 2]}`): a call is then generated so, and
  /// the call rendered back into the next turn's prompt is the text the model wrote.
  static func spacesCallArguments(rendering template: JinjaTemplate, bosToken: String, eosToken: String) -> Bool {
    let call = renderedCall(
      #"{"x":"y","z":[1,2]}"#, by: template, stringArguments: template.takesStringArguments, bosToken: bosToken,
      eosToken: eosToken)
    return call?.contains(#"{"x": "y", "z": [1, 2]}"#) == true
  }

  /// What `template` renders for an assistant turn with one call of `f` with `arguments`, or nil
  /// where it raises. The tool is described, as real ones are: templates that add a tool's
  /// description to text with `+` raise without one, as in jinja2.
  private static func renderedCall(
    _ arguments: String, by template: JinjaTemplate, stringArguments: Bool = false, bosToken: String,
    eosToken: String
  ) -> String? {
    let tool: JSONValue = .object([
      .init(key: "type", value: .string("function")),
      .init(
        key: "function",
        value: .object([
          .init(key: "name", value: .string("f")),
          .init(key: "description", value: .string("f")),
          .init(key: "parameters", value: .object([.init(key: "type", value: .string("object"))])),
        ])),
    ])
    let messages = [
      ChatMessage(role: .user, content: "?"),
      ChatMessage(role: .assistant, content: "", toolCalls: [.init(name: "f", argumentsJSON: arguments, id: "a")]),
    ]
    let context = try? TemplateVariables.context(
      messages: messages, tools: [tool], stringArguments: stringArguments, addGenerationPrompt: false,
      bosToken: bosToken, eosToken: eosToken, extra: [], now: Date())
    return context.flatMap { try? template.render($0).text }
  }

  /// The tool-call syntax a template renders calls in, read from its text: the texts each
  /// family's template writes around a call, most specific first.
  static func toolSyntax(of source: String) -> ToolSyntax {
    func has(_ texts: String...) -> Bool { texts.allSatisfy(source.contains) }
    if has("<｜tool▁calls▁begin｜>", "<｜tool▁sep｜>", "```json") { return .deepSeekR1 }
    if has("<｜tool▁calls▁begin｜>", "<｜tool▁sep｜>") { return .deepSeekV31 }
    if has("<|tool_calls_section_begin|>", "<|tool_call_argument_begin|>") { return .kimi }
    if has("<|START_ACTION|>", "tool_name") { return .commandR }
    if has("\"functions.\" + tool_call.name + \"<|channel|>commentary ") { return .harmony }
    if has("<|tools_prefix|>", "'{\"' + tool_call.name + '\": '") { return .apertus }
    if has("<|tool_call:begin|>", "<|tool_call:name|>", "<|tool_call:args|>") { return .solar }
    if has("<|function_call|>", "render_function_call") { return .gigaChat }
    if has("set HYTK = ':opensource'", "'<tool_calls{}>'.format(HYTK)", "'<arg_key{}>'.format(HYTK)") {
      return .hunyuan
    }
    if has("'<|tool_call>call:'", "<|\"|>") { return .gemma4 }
    if has("\"<|tool_call_start|>[\"", "tool_calls") { return .lfm2 }
    if has("'<function name=\"'", "'<param name=\"'") { return .miniCPM }
    if has("dsml_token", "｜DSML｜") {
      return .dsml(source.contains("dsml_token + 'function_calls>") ? "function_calls" : "tool_calls")
    }
    if has("<seed:tool_call>", "<function=", "<parameter=") { return .seed }
    if has("<tool_call>", "<function=", "<parameter=") { return .xmlFunction }
    if has("<tool_call>", "<arg_key>", "<arg_value>") { return .glm }
    if has("<minimax:tool_call>", "<invoke name=") { return .miniMax }
    if has("<function=", "</function>") && !source.contains("<parameter=") { return .functionary }
    if has("<tool_calls>[", "</tool_calls>") { return .apriel }
    if has("<tool_calls>", "</tool_calls>", #"{"name": "' + tool_call.function.name"#) { return .miniMaxM1 }
    if has("<TOOLCALL>[", "</TOOLCALL>") { return .nemotron }
    if has("functools[") { return .fireFunction }
    if has("<|tool_call|>", "tools") { return .granite }
    if has("<tool_call>", "tools"), !source.contains("<arg_key>"), !source.contains("<parameter=") { return .hermes }
    if has(#""parameters": dictionary of argument name"#) { return .llama3 }
    if has("[TOOL_CALLS][", "tools") { return .mistralNemo }
    if has("[TOOL_CALLS]", "[CALL_ID]", "[ARGS]") { return .mistralCallID }
    if has("[TOOL_CALLS]", "[ARGS]") { return .mistralV7 }
    return .generic
  }
}
