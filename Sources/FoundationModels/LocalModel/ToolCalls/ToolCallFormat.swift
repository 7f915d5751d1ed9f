import InferenceEngine

/// The text of a tool call: by default the `<tool_call>` block of Qwen2.5's chat template
/// (`hermes`), which is how Qwen was trained to call tools and what the template renders for
/// earlier calls; for Mistral Nemo's template its `[TOOL_CALLS]` array (`mistralNemo`).
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
struct ToolCallFormat: Sendable {
  /// What starts a call.
  ///
  /// In Qwen's vocabulary `<tool_call>` is one token, in Mistral's `[TOOL_CALLS]`.
  let marker: String
  /// What ends a call: the text after its arguments (`suffix`) ends with it.
  let closing: String
  /// Between the marker and the tool's name (a JSON string).
  let namePrefix: String
  /// After the arguments.
  let suffix: String
  /// Between one call and the next.
  let separator: String
  /// Whether a call's end is found as the end of the JSON value after the marker, where the
  /// closing text (`]`) could also appear inside the arguments.
  let endsWithItsJSON: Bool
  /// What comes between the name and the arguments where it is not `, "arguments": ` (Mistral
  /// v7's `[ARGS]`); the name is then written bare, not as a JSON string.
  var bareNameArgumentsMarker: String? = nil
  /// The key of a call's arguments in its JSON: `arguments`, or Llama 3's `parameters`.
  var argumentsKey = "arguments"
  /// Whether a turn has at most one call (Llama 3's templates render no more).
  var singleCall = false
  /// Whether a call in the model's own form (a JSON object naming a tool, `CallOpening`) is read
  /// in every round, not only the first: where it is the format's own call (Llama 3's).
  var ownFormInEveryRound = false
  /// Whether the model's own form is read at all.
  var readsOwnForm = true

  /// Qwen2.5's and Hermes' `<tool_call>` block.
  static let hermes = ToolCallFormat(
    marker: "<tool_call>", closing: "</tool_call>", namePrefix: "\n{\"name\": ", suffix: "}\n</tool_call>",
    separator: "\n", endsWithItsJSON: false)

  /// Mistral Nemo's `[TOOL_CALLS][{"name": …, "arguments": {…}}]`, a call per marker.
  static let mistralNemo = ToolCallFormat(
    marker: "[TOOL_CALLS]", closing: "]", namePrefix: "[{\"name\": ", suffix: "}]", separator: "",
    endsWithItsJSON: true)

  /// Mistral v7's `[TOOL_CALLS]NAME[ARGS]{…}` (Mistral Small 3, Devstral, Magistral), a call
  /// per marker, the name bare.
  static let mistralV7 = ToolCallFormat(
    marker: "[TOOL_CALLS]", closing: "", namePrefix: "", suffix: "", separator: "", endsWithItsJSON: true,
    bareNameArgumentsMarker: "[ARGS]", readsOwnForm: false)

  /// Llama 3.1–3.3's bare `{"name": …, "parameters": {…}}`, one per turn, read in the model's own
  /// form in every round (the marker of `hermes` opens one too).
  static let llama3: ToolCallFormat = {
    var format = hermes
    format.argumentsKey = "parameters"
    format.singleCall = true
    format.ownFormInEveryRound = true
    return format
  }()

  /// The format of calls for a template's tool syntax: the generic format's is `hermes`.
  static func of(_ syntax: ChatTemplate.ToolSyntax) -> ToolCallFormat {
    switch syntax {
    case .hermes, .generic: .hermes
    case .llama3: .llama3
    case .mistralNemo: .mistralNemo
    case .mistralV7: .mistralV7
    }
  }

  /// The markers a vocabulary may have as control tokens, which the output must show.
  var markers: [String] { [marker] + (bareNameArgumentsMarker.map { [$0] } ?? []) }

  /// Between the name and the arguments: `, "arguments": ` (the key as the format names it),
  /// or the marker before a bare name's arguments.
  var argumentsPrefix: String { bareNameArgumentsMarker ?? ", \"\(argumentsKey)\": " }

  /// A tool's name as a call writes it: a JSON string, quotes included.
  static func encodedName(_ name: String) -> [UInt8] {
    Array(GeneratedContent(kind: .string(name)).jsonString.utf8)
  }
}
