import Foundation
import JSON

/// A model's own chat template (`tokenizer.chat_template` in its GGUF, or one the user gives),
/// rendered exactly by llama.cpp's Jinja engine, as Hugging Face's `transformers` renders it.
///
/// The rendering keeps template text and input apart (`RenderedPrompt`): messages, tool
/// definitions, calls and outputs are input, which is never read as control tokens.
public struct ChatTemplate: Sendable, Equatable {
  /// How a model calls tools with this template.
  public enum ToolSyntax: Sendable, Equatable {
    /// The template describes tools and renders calls itself, as `<tool_call>` blocks of
    /// Hermes JSON (Qwen2.5, Qwen3, Hermes).
    case hermes
    /// The template describes tools and renders a call as a bare JSON object,
    /// `{"name": …, "parameters": {…}}`, one per turn (Llama 3.1, 3.2, 3.3).
    case llama3
    /// The template describes tools and renders calls as `[TOOL_CALLS][{"name": …, "arguments":
    /// {…}, "id": …}]`, with 9-character call ids (Mistral Nemo).
    case mistralNemo
    /// The template describes tools and renders calls as `[TOOL_CALLS]NAME[ARGS]{…}` (Ministral
    /// 3, Devstral, Magistral).
    case mistralV7
    /// `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` (Mistral Small 3.2).
    case mistralCallID
    /// `<|tool_call|>[{"name": …, "arguments": {…}}, …]` (Granite 3).
    case granite
    /// `<TOOLCALL>[{"name": …, "arguments": {…}}, …]</TOOLCALL>` (Nemotron Nano 2).
    case nemotron
    /// `<tool_calls>[{"name": …, "arguments": {…}, "id": …}, …]</tool_calls>` (Apriel).
    case apriel
    /// ` functools[{"name": …, "arguments": {…}}, …]` (FireFunction v2).
    case fireFunction
    /// `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": …, "parameters": {…}}, …]<|END_ACTION|>`
    /// (Command R7B, Command A).
    case commandR
    /// `<function=NAME>{…}</function>` (Functionary v3.1).
    case functionary
    /// `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` and fenced JSON
    /// arguments (DeepSeek R1 and its distills).
    case deepSeekR1
    /// `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>` (DeepSeek V3.1).
    case deepSeekV31
    /// `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}`
    /// (Kimi K2).
    case kimi
    /// `<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>…` (Qwen3-Coder, Qwen3.5).
    case xmlFunction
    /// `<tool_call>NAME\n<arg_key>KEY</arg_key>\n<arg_value>VALUE</arg_value>…` (GLM 4.5–4.6).
    case glm
    /// GLM's calls without line breaks, `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>VALUE</arg_value>…</tool_call>`
    /// (GLM 4.7 Flash, Spark 2.5, Laguna S 2.1): told apart from `glm` by rendering a call.
    case glmCompact
    /// `<minimax:tool_call>\n<invoke name="NAME">\n<parameter name="KEY">VALUE</parameter>…` (MiniMax M2).
    case miniMax
    /// `<seed:tool_call>\n<function=NAME>\n<parameter=KEY>VALUE</parameter>…` (Seed-OSS).
    case seed
    /// `<tool_calls>\n{"name": …, "arguments": {…}}\n…</tool_calls>` (MiniMax M1).
    case miniMaxM1
    /// DeepSeek's DSML, `<｜DSML｜BLOCK>` around `invoke` and `parameter` tags (V3.2:
    /// `function_calls`, V4: `tool_calls`).
    case dsml(String)
    /// gpt-oss's harmony: `<|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>{…}<|call|>`,
    /// one call per message.
    case harmony
    /// `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>` (Apertus).
    case apertus
    /// `<|tool_calls|><|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>…<|calls|>`
    /// (Solar Open).
    case solar
    /// `<|function_call|>{"name": …, "arguments": {…}}`, one per turn (GigaChat 3.1).
    case gigaChat
    /// `<tool_calls:opensource>` around GLM-like calls with `:opensource` tags (Hunyuan 3).
    case hunyuan
    /// `<|tool_call>call:NAME{KEY:VALUE,…}<tool_call|>`, strings in `<|"|>` quotes (Gemma 4).
    case gemma4
    /// `<|tool_call_start|>[NAME(KEY=VALUE, …), …]<|tool_call_end|>`, Python-style (LFM2.5).
    case lfm2
    /// `<function name="NAME"><param name="KEY">VALUE</param>…</function>` (MiniCPM 5).
    case miniCPM
    /// The template knows no tools, or calls them in a form not read here:
    /// `GenericToolFormat` writes them into the conversation.
    case generic
  }

  /// The template's Jinja source.
  public let source: String
  /// The text of the vocabulary's beginning- and end-of-sequence tokens (`bos_token`, `eos_token`).
  public let bosToken: String
  public let eosToken: String
  /// Whether the vocabulary wants the beginning-of-sequence token first: it is put there when
  /// the template does not write it, as llama.cpp does.
  public let addsBeginningOfSequence: Bool
  public let toolSyntax: ToolSyntax
  /// Whether requests with tools render a call's JSON arguments with a space after each `:` and
  /// `,` (`spacesCallArguments(rendering:bosToken:eosToken:)`), the spacing calls are generated in.
  public let spacesCallArguments: Bool
  /// How the model thinks, or nil for a template without thinking.
  public let reasoning: ReasoningSyntax?
  private let template: JinjaTemplate
  /// Whether the template reads a turn's tool outputs from its assistant message
  /// (`TemplateVariables.readsToolResponsesInTurn`), found once rather than at every rendering.
  private let readsToolResponsesInTurn: Bool
  /// The GGUF's `tokenizer.chat_template.tool_use`, which renders requests that have tools
  /// (Hermes 2 Pro's and Command R's files carry one), as llama.cpp uses it.
  private let toolUse: ToolUseTemplate?

  /// Parses a template.
  /// - Throws: `EngineError(.invalidChatTemplate)` when it does not parse.
  /// - Parameter toolUseSource: a second template for requests with tools, if the model has one.
  public init(
    source: String, bosToken: String = "", eosToken: String = "", addsBeginningOfSequence: Bool = false,
    toolUseSource: String? = nil
  ) throws {
    toolUse = try toolUseSource.map {
      ToolUseTemplate(
        try ChatTemplate(
          source: $0, bosToken: bosToken, eosToken: eosToken, addsBeginningOfSequence: addsBeginningOfSequence))
    }
    self.source = source
    self.bosToken = bosToken
    self.eosToken = eosToken
    self.addsBeginningOfSequence = addsBeginningOfSequence
    reasoning = ReasoningSyntax(template: source)
    readsToolResponsesInTurn = TemplateVariables.readsToolResponsesInTurn(source)
    template = try JinjaTemplate(source: source)
    toolSyntax = Self.toolSyntax(of: source, rendering: template, bosToken: bosToken, eosToken: eosToken)
    spacesCallArguments =
      toolUse?.template.spacesCallArguments
      ?? Self.spacesCallArguments(rendering: template, bosToken: bosToken, eosToken: eosToken)
  }

  public static func == (lhs: ChatTemplate, rhs: ChatTemplate) -> Bool {
    lhs.source == rhs.source && lhs.bosToken == rhs.bosToken && lhs.eosToken == rhs.eosToken
      && lhs.addsBeginningOfSequence == rhs.addsBeginningOfSequence && lhs.toolUse?.template == rhs.toolUse?.template
  }

  /// Renders a conversation.
  /// - Parameters:
  ///   - tools: tool definitions as JSON objects (`{"type":"function","function":{…}}`).
  ///   - addGenerationPrompt: whether to open the assistant's turn at the end.
  ///   - closingLastMessage: whether the last message's turn is closed; an open one ends with
  ///     its text and can be continued by later text (a prompt prefix evaluated ahead of its prompt).
  ///   - variables: the template's own switches (`enable_thinking`, `reasoning_effort`, …).
  ///   - now: the time `strftime_now` formats.
  /// - Throws: `EngineError(.invalidChatTemplate)` when the template raises (a role it does
  ///   not take, say), `.invalidRequest` for tool calls whose arguments are not JSON.
  public func render(
    _ messages: [ChatMessage], tools: [String] = [], addGenerationPrompt: Bool = true, closingLastMessage: Bool = true,
    variables: [JSONValue.Member] = [], now: Date = Date()
  ) throws -> RenderedPrompt {
    if !tools.isEmpty, let toolUse {
      return try toolUse.template.render(
        messages, tools: tools, addGenerationPrompt: addGenerationPrompt, closingLastMessage: closingLastMessage,
        variables: variables, now: now)
    }
    let (messages, toolValues) = try conversation(messages, tools: tools)
    var noTools = TemplateVariables.NoTools.none
    var renderedTools = toolValues
    func rendering(_ messages: [ChatMessage], generationPrompt: Bool) throws -> RenderedPrompt {
      try template.render(
        context(
          messages, tools: renderedTools, noTools: noTools, addGenerationPrompt: generationPrompt,
          variables: variables, now: now),
        now: now)
    }
    var chosen = messages
    var prompt: RenderedPrompt
    do {
      prompt = try rendering(messages, generationPrompt: addGenerationPrompt)
    } catch let error as EngineError {
      // Where the template raises, what llama.cpp does for such templates: a template without a
      // system role (Gemma 2, Mistral's first ones) gets the instructions at the start of the
      // first user message; a tool-use template that iterates `tools` (Hermes 2 Pro's) gets an
      // empty list where there are none. A tool or parameter without a description gets an
      // empty one (`describing`).
      let folded = Self.foldingSystemMessage(messages)
      let described = Self.describing(toolValues)
      let foldedTools = described ?? toolValues
      let attempts: [(TemplateVariables.NoTools, [ChatMessage], [JSONValue])] =
        (described.map { [(.none, messages, $0)] } ?? [])
        + (toolValues.isEmpty ? [(.emptyList, messages, toolValues)] : [])
        + (folded.map { [(.none, $0, foldedTools)] + (toolValues.isEmpty ? [(.emptyList, $0, toolValues)] : []) }
          ?? [])
      var retried: (noTools: TemplateVariables.NoTools, messages: [ChatMessage], prompt: RenderedPrompt)?
      for (kind, conversation, tools) in attempts {
        noTools = kind
        renderedTools = tools
        if let rendered = try? rendering(conversation, generationPrompt: addGenerationPrompt) {
          retried = (kind, conversation, rendered)
          break
        }
      }
      guard let retried else { throw error }
      noTools = retried.noTools
      chosen = retried.messages
      prompt = retried.prompt
    }
    // The system turn is a part other conversations share: where rendering it alone gives a
    // prefix of the whole, a part ends.
    if chosen.first?.role == .system, chosen.count > 1,
      let system = try? rendering(Array(chosen.prefix(1)), generationPrompt: false).text,
      !system.isEmpty, prompt.text.utf8.starts(with: system.utf8)
    {
      prompt.endPart(afterBytes: system.utf8.count)
    }
    if toolSyntax != .generic { prompt = prompt.markingInput(Self.jsonStrings(in: messages, tools: toolValues)) }
    if !closingLastMessage { prompt = prompt.endingWithLastInput() }
    if addsBeginningOfSequence, !bosToken.isEmpty, !prompt.text.hasPrefix(bosToken) {
      prompt.prepend(control: bosToken)
    }
    return prompt
  }

  /// The template's variables for a conversation (`TemplateVariables`), with calls' arguments
  /// in the form the template renders them.
  func context(
    _ messages: [ChatMessage], tools: [JSONValue], noTools: TemplateVariables.NoTools = .none,
    addGenerationPrompt: Bool, variables: [JSONValue.Member], now: Date
  ) throws -> JSONValue {
    try TemplateVariables.context(
      messages: messages, tools: tools, noTools: noTools, stringArguments: template.takesStringArguments,
      reasoningKey: reasoning?.messageKey ?? TemplateVariables.reasoningKey,
      toolResponsesInTurn: readsToolResponsesInTurn, addGenerationPrompt: addGenerationPrompt,
      bosToken: bosToken, eosToken: eosToken, extra: variables, now: now)
  }

  /// Renders with `context` as the template's variables, as given (the parity tests): strings
  /// in it are template text unless marked `{"__input__": …}`.
  func render(context: JSONValue, now: Date = Date()) throws -> RenderedPrompt {
    try template.render(context, now: now)
  }

  /// The messages and tool definitions the template is given: tools as JSON values, and in the
  /// generic format written into the messages.
  private func conversation(_ messages: [ChatMessage], tools: [String]) throws -> ([ChatMessage], [JSONValue]) {
    if toolSyntax == .generic { return (GenericToolFormat.messages(messages, tools: tools), []) }
    let values = try tools.map { text in
      do { return try JSONValue(parsing: text) } catch {
        throw EngineError(.invalidRequest, "a tool definition is not JSON: \(error)")
      }
    }
    return (messages, values)
  }
}

/// A tool-use template, boxed: a template holds it.
private final class ToolUseTemplate: Sendable {
  let template: ChatTemplate
  init(_ template: ChatTemplate) { self.template = template }
}
