import InferenceEngine

/// The text of a model family's tool calls, as its chat template renders them and as the model
/// was trained to write them: by default the `<tool_call>` block of Qwen2.5's template (`hermes`).
///
/// Models whose template has no tool format (SmolLM2) are given the same block, described in their
/// system message (`GenericToolFormat`): one format, documented in `docs/TOOLS.md`.
///
/// A turn's calls are written as
///
///     marker namePrefix NAME argumentsPrefix ARGUMENTS suffix
///       ( separator (nextCallPrefix | marker namePrefix) NAME argumentsPrefix ARGUMENTS suffix )*
///     closing
///
/// where NAME is a tool's name, as a JSON string or bare (`bareNames`), and ARGUMENTS a JSON
/// object of that tool's schema. `{#}` in the fixed text stands for the call's index in the turn
/// (Command R's `"tool_call_id"`, Kimi's `functions.NAME:0`). A model may also open its first
/// call in a form of its own (`CallOpening`); the call is then written on as a bare object.
struct ToolCallFormat: Sendable, Equatable {
  /// What opens the turn's calls: found in free text, or, where it begins with a control token
  /// (Mistral's `[TOOL_CALLS]`, DeepSeek's `<｜tool▁calls▁begin｜>`), that token.
  let marker: String
  /// Between the marker and the first call's name.
  let namePrefix: String
  /// Between the name and the arguments.
  let argumentsPrefix: String
  /// After the arguments: the end of the call.
  let suffix: String
  /// Between one call and the next.
  var separator = ""
  /// What opens each further call after the separator; nil where it is the marker and the name
  /// prefix again (Hermes' `<tool_call>` blocks, Mistral's `[TOOL_CALLS]` calls).
  var nextCallPrefix: String? = nil
  /// After the last call (`]`, `<｜tool▁calls▁end｜>`); empty where the turn just ends.
  var closing = ""
  /// Whether the name is written bare, not as a JSON string: the name's end is where the
  /// arguments' prefix begins, or where there is none, where the arguments (their first member
  /// or the call's suffix) begin.
  var bareNames = false
  /// Whether a turn has at most one call (Llama 3's templates render no more).
  var singleCall = false
  /// Whether a call in the model's own form (a JSON object naming a tool, `CallOpening`) is read
  /// in every round, not only the first: where it is the format's own call (Llama 3's).
  var ownFormInEveryRound = false
  /// Whether the model's own form is read at all.
  var readsOwnForm = true
  /// How the arguments are written where they are tagged members, not a JSON object (then
  /// `suffix` ends the members: `TaggedArgumentsConstraint`).
  var taggedArguments: TaggedArguments? = nil

  /// Arguments as tagged members: `keyOpening NAME keyClosing VALUE valueClosing` each,
  /// `memberSeparator` between two, a string's value its raw text, any other value JSON (after
  /// `jsonKeyClosing` where the tag says which: DeepSeek's `string="false"`; and closed by
  /// `jsonValueClosing` where that differs, Gemma 4's JSON value by nothing at all).
  struct TaggedArguments: Sendable, Equatable {
    let keyOpening: String
    let keyClosing: String
    let valueClosing: String
    var jsonKeyClosing: String? = nil
    var jsonValueClosing: String? = nil
    var memberSeparator = ""
    /// Whether a string's value is its raw text; where not, every value is JSON (LFM2's
    /// Python-style arguments, whose strings are then double-quoted).
    var rawStrings = true
    /// Whether a raw value may be wrapped in `<![CDATA[`…`]]>`, which is not part of it
    /// (MiniCPM 5's, for a value with `<`, `&` or a line break).
    var cdata = false

    /// The closing of a member's key, for a string's raw value or for JSON.
    func keyClosing(json: Bool) -> String { json ? jsonKeyClosing ?? keyClosing : keyClosing }

    /// The closing of a member's value, for a string's raw value or for JSON.
    func valueClosing(json: Bool) -> String { json ? jsonValueClosing ?? valueClosing : valueClosing }

    /// The value's closing tag without the white space after it: where a raw value (or with
    /// `json`, a JSON one) ends.
    func valueEnd(json: Bool = false) -> String {
      String(valueClosing(json: json).reversed().drop { $0.isWhitespace }.reversed())
    }
  }

  /// Qwen2.5's and Hermes' `<tool_call>` block, a call per block, a line break between them.
  static let hermes = ToolCallFormat(
    marker: "<tool_call>", namePrefix: "\n{\"name\": ", argumentsPrefix: ", \"arguments\": ",
    suffix: "}\n</tool_call>", separator: "\n")

  /// Llama 3.1–3.3's `{"name": …, "parameters": {…}}`, one per turn, after `<|python_tag|>` or
  /// bare, in the model's own form (which is read in every round).
  static let llama3 = ToolCallFormat(
    marker: "<|python_tag|>", namePrefix: "{\"name\": ", argumentsPrefix: ", \"parameters\": ", suffix: "}",
    singleCall: true, ownFormInEveryRound: true)

  /// Mistral Nemo's `[TOOL_CALLS][{"name": …, "arguments": {…}, "id": "call00000"}, …]`: the
  /// turn's calls in one array, each with its nine-character id.
  static let mistralNemo = ToolCallFormat(
    marker: "[TOOL_CALLS]", namePrefix: "[{\"name\": ", argumentsPrefix: ", \"arguments\": ",
    suffix: ", \"id\": \"{id}\"}", separator: ", ", nextCallPrefix: "{\"name\": ", closing: "]")

  /// Mistral v7's `[TOOL_CALLS]NAME[ARGS]{…}` (Ministral 3, Devstral, Magistral), a call per
  /// marker.
  static let mistralV7 = ToolCallFormat(
    marker: "[TOOL_CALLS]", namePrefix: "", argumentsPrefix: "[ARGS]", suffix: "", bareNames: true,
    readsOwnForm: false)

  /// Mistral Small 3.2's `[TOOL_CALLS]NAME[CALL_ID]call00000[ARGS]{…}`, a call per marker.
  static let mistralCallID = ToolCallFormat(
    marker: "[TOOL_CALLS]", namePrefix: "", argumentsPrefix: "[CALL_ID]{id}[ARGS]", suffix: "", bareNames: true,
    readsOwnForm: false)

  /// A marker, then a JSON array of `{"name": …, "arguments": {…}}` objects, then `end`:
  /// Granite 3's `<|tool_call|>[…]`, Nemotron Nano 2's `<TOOLCALL>[…]</TOOLCALL>`, Apriel's
  /// `<tool_calls>[…]</tool_calls>`, FireFunction's ` functools[…]`.
  /// `ids`: each call ends with its id (`, "id": "call00000"`), as Apriel's template writes it.
  static func jsonArray(after marker: String, end: String = "", ids: Bool = false) -> ToolCallFormat {
    ToolCallFormat(
      marker: marker, namePrefix: "[{\"name\": ", argumentsPrefix: ", \"arguments\": ",
      suffix: ids ? ", \"id\": \"{id}\"}" : "}", separator: ", ", nextCallPrefix: "{\"name\": ", closing: "]" + end)
  }

  /// Command R7B's `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": …, "parameters": {…}}, …]<|END_ACTION|>`.
  static let commandR = ToolCallFormat(
    marker: "<|START_ACTION|>", namePrefix: "[\n    {\"tool_call_id\": \"{#}\", \"tool_name\": ",
    argumentsPrefix: ", \"parameters\": ", suffix: "}", separator: ",\n    ",
    nextCallPrefix: "{\"tool_call_id\": \"{#}\", \"tool_name\": ", closing: "\n]<|END_ACTION|>")

  /// Functionary v3.1's `<function=NAME>{…}</function>`, one after another.
  static let functionary = ToolCallFormat(
    marker: "<function=", namePrefix: "", argumentsPrefix: ">", suffix: "</function>", bareNames: true,
    readsOwnForm: false)

  /// DeepSeek R1's `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` and the
  /// arguments in a fenced JSON block, calls a line apart, `<｜tool▁calls▁end｜>` after the last.
  static let deepSeekR1 = ToolCallFormat(
    marker: "<｜tool▁calls▁begin｜>", namePrefix: "<｜tool▁call▁begin｜>function<｜tool▁sep｜>",
    argumentsPrefix: "\n```json\n", suffix: "\n```<｜tool▁call▁end｜>", separator: "\n",
    nextCallPrefix: "<｜tool▁call▁begin｜>function<｜tool▁sep｜>", closing: "<｜tool▁calls▁end｜>", bareNames: true,
    readsOwnForm: false)

  /// DeepSeek V3.1's `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>`.
  static let deepSeekV31 = ToolCallFormat(
    marker: "<｜tool▁calls▁begin｜>", namePrefix: "<｜tool▁call▁begin｜>", argumentsPrefix: "<｜tool▁sep｜>",
    suffix: "<｜tool▁call▁end｜>", nextCallPrefix: "<｜tool▁call▁begin｜>", closing: "<｜tool▁calls▁end｜>",
    bareNames: true, readsOwnForm: false)

  /// Kimi K2's `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>…<|tool_calls_section_end|>`.
  static let kimi = ToolCallFormat(
    marker: "<|tool_calls_section_begin|>", namePrefix: "<|tool_call_begin|>functions.",
    argumentsPrefix: ":{#}<|tool_call_argument_begin|>", suffix: "<|tool_call_end|>",
    nextCallPrefix: "<|tool_call_begin|>functions.", closing: "<|tool_calls_section_end|>", bareNames: true,
    readsOwnForm: false)

  /// Qwen3-Coder's and Qwen3.5's `<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n…</function>\n</tool_call>`
  /// (also StepFun 3.5 and Nemotron 3 Nano).
  static let xmlFunction = ToolCallFormat(
    marker: "<tool_call>", namePrefix: "\n<function=", argumentsPrefix: ">\n", suffix: "</function>\n</tool_call>",
    separator: "\n", bareNames: true, readsOwnForm: false,
    taggedArguments: TaggedArguments(keyOpening: "<parameter=", keyClosing: ">\n", valueClosing: "\n</parameter>\n"))

  /// GLM 4.5–4.7's `<tool_call>NAME\n<arg_key>KEY</arg_key>\n<arg_value>VALUE</arg_value>\n…</tool_call>`
  /// (also Ling, Spark and Laguna).
  static let glm = ToolCallFormat(
    marker: "<tool_call>", namePrefix: "", argumentsPrefix: "\n", suffix: "</tool_call>", separator: "\n",
    bareNames: true, readsOwnForm: false,
    taggedArguments: TaggedArguments(
      keyOpening: "<arg_key>", keyClosing: "</arg_key>\n<arg_value>", valueClosing: "</arg_value>\n"))

  /// GLM 4.7 Flash's calls, as `glm` without line breaks: `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>…</tool_call>`
  /// (also Spark 2.5 and Laguna S 2.1). The name ends where its first member or the call's end begins.
  static let glmCompact = ToolCallFormat(
    marker: "<tool_call>", namePrefix: "", argumentsPrefix: "", suffix: "</tool_call>", bareNames: true,
    readsOwnForm: false,
    taggedArguments: TaggedArguments(
      keyOpening: "<arg_key>", keyClosing: "</arg_key><arg_value>", valueClosing: "</arg_value>"))

  /// MiniMax M2's `<minimax:tool_call>\n<invoke name="NAME">\n<parameter name="KEY">VALUE</parameter>\n…</invoke>\n`,
  /// an invoke per call, then `</minimax:tool_call>`.
  static let miniMax = ToolCallFormat(
    marker: "<minimax:tool_call>", namePrefix: "\n<invoke name=\"", argumentsPrefix: "\">\n", suffix: "</invoke>\n",
    nextCallPrefix: "<invoke name=\"", closing: "</minimax:tool_call>", bareNames: true, readsOwnForm: false,
    taggedArguments: TaggedArguments(
      keyOpening: "<parameter name=\"", keyClosing: "\">", valueClosing: "</parameter>\n"))

  /// Seed-OSS's `<seed:tool_call>\n<function=NAME>\n<parameter=KEY>VALUE</parameter>\n…</function>\n</seed:tool_call>`.
  static let seed = ToolCallFormat(
    marker: "<seed:tool_call>", namePrefix: "\n<function=", argumentsPrefix: ">\n",
    suffix: "</function>\n</seed:tool_call>", separator: "\n", bareNames: true, readsOwnForm: false,
    taggedArguments: TaggedArguments(keyOpening: "<parameter=", keyClosing: ">", valueClosing: "</parameter>\n"))

  /// MiniMax M1's `<tool_calls>\n{"name": …, "arguments": {…}}\n…</tool_calls>`, a call per line.
  static let miniMaxM1 = ToolCallFormat(
    marker: "<tool_calls>", namePrefix: "\n{\"name\": ", argumentsPrefix: ", \"arguments\": ", suffix: "}\n",
    nextCallPrefix: "{\"name\": ", closing: "</tool_calls>", readsOwnForm: false)

  /// DeepSeek V3.2's and V4's DSML: `<｜DSML｜BLOCK>\n<｜DSML｜invoke name="NAME">\n<｜DSML｜parameter name="KEY" string="true">VALUE</｜DSML｜parameter>\n…</｜DSML｜invoke>\n…</｜DSML｜BLOCK>`,
  /// `BLOCK` being `function_calls` (V3.2) or `tool_calls` (V4).
  static func dsml(block: String) -> ToolCallFormat {
    ToolCallFormat(
      marker: "<｜DSML｜\(block)>", namePrefix: "\n<｜DSML｜invoke name=\"", argumentsPrefix: "\">\n",
      suffix: "</｜DSML｜invoke>\n", nextCallPrefix: "<｜DSML｜invoke name=\"", closing: "</｜DSML｜\(block)>",
      bareNames: true, readsOwnForm: false,
      taggedArguments: TaggedArguments(
        keyOpening: "<｜DSML｜parameter name=\"", keyClosing: "\" string=\"true\">",
        valueClosing: "</｜DSML｜parameter>\n", jsonKeyClosing: "\" string=\"false\">"))
  }

  /// gpt-oss's harmony call as OpenAI's harmony format has the model write it, after
  /// `<|start|>assistant` (the prompt's or the thinking's):
  /// `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}`, then `<|call|>`,
  /// which ends the generation. One call per turn. (The template renders past calls with the
  /// recipient before the channel, ` to=functions.NAME<|channel|>commentary json<|message|>`,
  /// which harmony also allows.)
  static let harmony = ToolCallFormat(
    marker: "<|channel|>commentary to=functions.", namePrefix: "", argumentsPrefix: " <|constrain|>json<|message|>",
    suffix: "", bareNames: true, singleCall: true, readsOwnForm: false)

  /// Apertus' `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>`: each call an object whose one
  /// member is named for the tool (written as its template writes it, unescaped, so the
  /// vocabulary's `{"` begins a call).
  static let apertus = ToolCallFormat(
    marker: "<|tools_prefix|>", namePrefix: "[{\"", argumentsPrefix: "\": ", suffix: "}", separator: ", ",
    nextCallPrefix: "{\"", closing: "]<|tools_suffix|>", bareNames: true, readsOwnForm: false)

  /// Solar Open's `<|tool_calls|><|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>…<|calls|>`,
  /// the id ten lowercase letters and digits, as its template asks.
  static let solar = ToolCallFormat(
    marker: "<|tool_calls|>", namePrefix: "<|tool_call:begin|>{id10}<|tool_call:name|>",
    argumentsPrefix: "<|tool_call:args|>",
    suffix: "<|tool_call:end|>", nextCallPrefix: "<|tool_call:begin|>{id10}<|tool_call:name|>", closing: "<|calls|>",
    bareNames: true, readsOwnForm: false)

  /// GigaChat 3.1's `<|function_call|>{"name": …, "arguments": {…}}`, one per turn.
  static let gigaChat = ToolCallFormat(
    marker: "<|function_call|>", namePrefix: "{\"name\": ", argumentsPrefix: ", \"arguments\": ", suffix: "}",
    singleCall: true, readsOwnForm: false)

  /// Hunyuan 3's GLM-like calls, each tag suffixed `:opensource`:
  /// `<tool_calls:opensource>\n<tool_call:opensource>NAME<tool_sep:opensource>\n<arg_key:opensource>KEY</arg_key:opensource>\n<arg_value:opensource>VALUE</arg_value:opensource>\n…`.
  static let hunyuan = ToolCallFormat(
    marker: "<tool_calls:opensource>", namePrefix: "\n<tool_call:opensource>",
    argumentsPrefix: "<tool_sep:opensource>\n",
    suffix: "</tool_call:opensource>\n", nextCallPrefix: "<tool_call:opensource>", closing: "</tool_calls:opensource>",
    bareNames: true, readsOwnForm: false,
    taggedArguments: TaggedArguments(
      keyOpening: "<arg_key:opensource>", keyClosing: "</arg_key:opensource>\n<arg_value:opensource>",
      valueClosing: "</arg_value:opensource>\n"))

  /// Gemma 4's `<|tool_call>call:NAME{KEY:VALUE,…}<tool_call|>`, a call after another: a
  /// string's value its raw text between `<|"|>` quotes, any other value JSON (Gemma writes
  /// nested objects' keys bare and their strings in `<|"|>` quotes; here they are JSON, which
  /// its template renders back in its own form).
  static let gemma4 = ToolCallFormat(
    marker: "<|tool_call>call:", namePrefix: "", argumentsPrefix: "{", suffix: "}<tool_call|>", bareNames: true,
    readsOwnForm: false,
    taggedArguments: TaggedArguments(
      keyOpening: "", keyClosing: ":<|\"|>", valueClosing: "<|\"|>", jsonKeyClosing: ":", jsonValueClosing: "",
      memberSeparator: ","))

  /// MiniCPM 5's `<function name="NAME"><param name="KEY">VALUE</param>…</function>`, a line
  /// between calls; a value may be wrapped in CDATA.
  static let miniCPM = ToolCallFormat(
    marker: "<function name=\"", namePrefix: "", argumentsPrefix: "\">", suffix: "</function>", separator: "\n",
    bareNames: true, readsOwnForm: false,
    taggedArguments: TaggedArguments(
      keyOpening: "<param name=\"", keyClosing: "\">", valueClosing: "</param>", cdata: true))

  /// LFM2's Python-style calls, `<|tool_call_start|>[NAME(KEY=VALUE, …), …]<|tool_call_end|>`:
  /// every value JSON, which reads as Python but for `true`, `false` and `null` (its template
  /// renders strings back single-quoted and booleans as `True` and `False`).
  static let lfm2 = ToolCallFormat(
    marker: "<|tool_call_start|>[", namePrefix: "", argumentsPrefix: "(", suffix: ")", separator: ", ",
    nextCallPrefix: "", closing: "]<|tool_call_end|>", bareNames: true, readsOwnForm: false,
    taggedArguments: TaggedArguments(
      keyOpening: "", keyClosing: "=", valueClosing: "", memberSeparator: ", ", rawStrings: false))

  /// The format of calls for a template's tool syntax: the generic format's is `hermes`.
  static func of(_ syntax: ChatTemplate.ToolSyntax) -> ToolCallFormat {
    switch syntax {
    case .hermes, .generic: .hermes
    case .llama3: .llama3
    case .mistralNemo: .mistralNemo
    case .mistralV7: .mistralV7
    case .mistralCallID: .mistralCallID
    case .granite: .jsonArray(after: "<|tool_call|>")
    case .nemotron: .jsonArray(after: "<TOOLCALL>", end: "</TOOLCALL>")
    case .apriel: .jsonArray(after: "<tool_calls>", end: "</tool_calls>", ids: true)
    case .fireFunction: .jsonArray(after: " functools")
    case .commandR: .commandR
    case .functionary: .functionary
    case .deepSeekR1: .deepSeekR1
    case .deepSeekV31: .deepSeekV31
    case .kimi: .kimi
    case .xmlFunction: .xmlFunction
    case .glm: .glm
    case .glmCompact: .glmCompact
    case .miniMax: .miniMax
    case .seed: .seed
    case .miniMaxM1: .miniMaxM1
    case .dsml(let block): .dsml(block: block)
    case .harmony: .harmony
    case .apertus: .apertus
    case .solar: .solar
    case .gigaChat: .gigaChat
    case .hunyuan: .hunyuan
    case .gemma4: .gemma4
    case .lfm2: .lfm2
    case .miniCPM: .miniCPM
    }
  }

  /// The fixed text of the format, where a vocabulary's control tokens may be: they are shown
  /// in the output, so that the splitter reads them.
  var markers: [String] {
    [
      marker, namePrefix, argumentsPrefix, suffix, separator, nextCallPrefix ?? "", closing,
      taggedArguments?.keyOpening ?? "", taggedArguments?.keyClosing ?? "", taggedArguments?.valueClosing ?? "",
      taggedArguments?.memberSeparator ?? "",
      taggedArguments?.jsonKeyClosing ?? "",
    ].filter { !$0.isEmpty }
  }

  /// What opens the call with index `index` after the one before it: the separator, then the
  /// next call's prefix, or the marker and the name's prefix again.
  func nextCallOpening(call index: Int) -> String {
    Self.text(separator + (nextCallPrefix ?? marker + namePrefix), call: index)
  }

  /// `text` for the call with index `index` in its turn: `{#}` is the index, `{id}` and `{id10}`
  /// call ids made of it, nine lowercase letters and digits as Mistral's templates require
  /// (`call00000`) and ten as Solar Open's asks (`call000000`).
  static func text(_ text: String, call index: Int) -> String {
    guard text.contains("{") else { return text }
    func id(_ length: Int) -> String { "call" + String(String(index).suffix(length - 4)).leftPadded(to: length - 4) }
    return text.replacingOccurrences(of: "{#}", with: String(index)).replacingOccurrences(of: "{id}", with: id(9))
      .replacingOccurrences(of: "{id10}", with: id(10))
  }

  /// A tool's name as a call writes it: a JSON string, quotes included.
  static func encodedName(_ name: String) -> [UInt8] {
    Array(GeneratedContent(kind: .string(name)).jsonString.utf8)
  }
}

extension String {
  /// The string with zeros before it up to `length` characters.
  fileprivate func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
