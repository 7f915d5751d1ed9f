import JSON

/// An Anthropic message's content blocks as the model writes them — a `thinking` block for its
/// thinking, a `text` block for its answer, a `tool_use` block for each call — and the stream
/// events that announce each block and its deltas, in the order Anthropic sends them.
struct MessageContent {
  /// One stream event: its `type` and the members after it.
  struct Event {
    var type: String
    var members: [JSONValue.Member]
  }

  private(set) var blocks: [JSONValue] = []
  /// The call being written, until its arguments are complete.
  private var calling: CompletionRunner.ToolCall?
  /// The block being written: thinking or text, and its text so far.
  private var open: (isThinking: Bool, text: String)?

  /// The events for what the model wrote next.
  mutating func feed(_ delta: CompletionRunner.Delta) -> [Event] {
    switch delta {
    case .reasoning(let text): return append(text, thinking: true)
    case .content(let text): return append(text, thinking: false)
    case .toolCallStarted(let call):
      var events = close()
      calling = call
      events.append(
        Event(
          type: "content_block_start",
          members: [
            member("index", .integer(blocks.count)), member("content_block", Self.toolUse(call, input: .object([]))),
          ]))
      return events
    case .toolCall(let call):
      var events = calling?.id == call.id ? [] : feed(.toolCallStarted(call))
      let index = member("index", .integer(blocks.count))
      let delta = JSONValue.object([
        member("type", .string("input_json_delta")), member("partial_json", .string(call.arguments)),
      ])
      events.append(Event(type: "content_block_delta", members: [index, member("delta", delta)]))
      events.append(Event(type: "content_block_stop", members: [index]))
      blocks.append(Self.toolUse(call, input: (try? JSONValue(parsing: call.arguments)) ?? .object([])))
      calling = nil
      return events
    }
  }

  /// A `tool_use` block: the call's id as Anthropic writes ids (`toolu_…`).
  private static func toolUse(_ call: CompletionRunner.ToolCall, input: JSONValue) -> JSONValue {
    .object([
      member("type", .string("tool_use")), member("id", .string("toolu_" + call.id.dropFirst("call_".count))),
      member("name", .string(call.name)), member("input", input),
    ])
  }

  /// The events that close the content; an answer with nothing at all is one empty text block.
  mutating func finish() -> [Event] {
    var events = close()
    if blocks.isEmpty {
      events += append("", thinking: false)
      events += close()
    }
    return events
  }

  private mutating func append(_ text: String, thinking: Bool) -> [Event] {
    var events: [Event] = []
    if let open, open.isThinking != thinking { events = close() }
    let index = member("index", .integer(blocks.count))
    if open == nil {
      open = (thinking, "")
      events.append(Event(type: "content_block_start", members: [index, member("content_block", block("", thinking))]))
    }
    guard !text.isEmpty else { return events }
    open?.text += text
    let delta: JSONValue =
      thinking
      ? .object([member("type", .string("thinking_delta")), member("thinking", .string(text))])
      : .object([member("type", .string("text_delta")), member("text", .string(text))])
    events.append(Event(type: "content_block_delta", members: [index, member("delta", delta)]))
    return events
  }

  private mutating func close() -> [Event] {
    guard let (thinking, text) = open else { return [] }
    open = nil
    let index = member("index", .integer(blocks.count))
    blocks.append(block(text, thinking))
    var events: [Event] = []
    if thinking {
      // Anthropic's clients expect a signature on a thinking block; this server signs nothing, and
      // its thinking blocks are read back as plain text (then left out of the prompt).
      events.append(
        Event(
          type: "content_block_delta",
          members: [
            index,
            member("delta", .object([member("type", .string("signature_delta")), member("signature", .string(""))])),
          ]))
    }
    events.append(Event(type: "content_block_stop", members: [index]))
    return events
  }

  private func block(_ text: String, _ thinking: Bool) -> JSONValue {
    thinking
      ? .object([
        member("type", .string("thinking")), member("thinking", .string(text)), member("signature", .string("")),
      ])
      : .object([member("type", .string("text")), member("text", .string(text))])
  }
}
