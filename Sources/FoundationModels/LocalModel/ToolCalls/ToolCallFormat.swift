/// The text of a tool call: the `<tool_call>` block of Qwen2.5's chat template, which is how
/// Qwen was trained to call tools and what the template renders for earlier calls.
///
/// Models whose template has no tool format (SmolLM2) are given the same block, described in their
/// system message by the same text (`ChatTemplate.render(_:tools:)`): one format, documented in
/// `docs/TOOLS.md`.
///
///     <tool_call>
///     {"name": "getWeather", "arguments": {"city":"Paris"}}
///     </tool_call>
///
/// Several calls follow one another, each on its own line; nothing follows the last one. A
/// model may also open its first call in a form of its own (`CallOpening`); the call is then
/// written on in this format.
enum ToolCallFormat {
  /// What starts a call.
  ///
  /// In Qwen's vocabulary it is one token.
  static let marker = "<tool_call>"
  /// What ends a call.
  static let closing = "</tool_call>"
  /// Between the marker and the tool's name (a JSON string).
  static let namePrefix = "\n{\"name\": "
  /// Between the name and the arguments (a JSON object).
  static let argumentsPrefix = argumentsPrefix(key: "arguments")

  /// Between the name and the arguments under `key`: `arguments`, or `parameters` in the
  /// bare JSON calls of Llama 3's templates.
  static func argumentsPrefix(key: String) -> String { ", \"\(key)\": " }
  /// After the arguments.
  static let suffix = "}\n" + closing
  /// A tool's name as a call writes it: a JSON string, quotes included.
  static func encodedName(_ name: String) -> [UInt8] {
    Array(GeneratedContent(kind: .string(name)).jsonString.utf8)
  }

  /// Between one call and the next.
  static let separator = "\n"
}
