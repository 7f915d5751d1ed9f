import JSON

/// A response's output items as the model writes them — a `reasoning` item for its thinking, a
/// `message` for its answer, a `function_call` for each call — and the stream events that
/// announce each item, its parts and deltas, in the order OpenAI sends them.
struct ResponseOutput {
  /// One stream event: its `type` and members (the stream adds `sequence_number`).
  struct Event {
    var type: String
    var members: [JSONValue.Member]
  }

  private(set) var items: [JSONValue] = []
  /// The item being written: a reasoning item or a message, its id and text so far.
  private var open: (isReasoning: Bool, id: String, text: String)?
  /// The call being written: its item id and the call, until its arguments are complete.
  private var calling: (id: String, call: CompletionRunner.ToolCall)?
  /// The thinking written, all of it.
  private(set) var reasoningText = ""

  /// The events for what the model wrote next.
  mutating func feed(_ delta: CompletionRunner.Delta) -> [Event] {
    switch delta {
    case .reasoning(let text):
      reasoningText += text
      return append(text, reasoning: true)
    case .content(let text):
      return append(text, reasoning: false)
    case .toolCallStarted(let call):
      var events = close()
      calling = (ResponseItems.id("fc"), call)
      events.append(
        Event(type: "response.output_item.added", members: [outputIndex, member("item", callItem("in_progress", ""))]))
      return events
    case .toolCall(let call):
      var events = calling?.call.id == call.id ? [] : feed(.toolCallStarted(call))
      guard let id = calling?.id else { return events }
      events.append(
        Event(
          type: "response.function_call_arguments.delta",
          members: [member("item_id", .string(id)), outputIndex, member("delta", .string(call.arguments))]))
      events.append(
        Event(
          type: "response.function_call_arguments.done",
          members: [
            member("item_id", .string(id)), outputIndex, member("arguments", .string(call.arguments)),
            member("name", .string(call.name)),
          ]))
      let done = callItem("completed", call.arguments)
      events.append(Event(type: "response.output_item.done", members: [outputIndex, member("item", done)]))
      items.append(done)
      calling = nil
      return events
    }
  }

  /// The member naming the item being written: the next in `items`.
  private var outputIndex: JSONValue.Member { member("output_index", .integer(items.count)) }

  /// The call being written, as an item.
  private func callItem(_ status: String, _ arguments: String) -> JSONValue {
    .object([
      member("id", .string(calling?.id ?? "")), member("type", .string("function_call")),
      member("status", .string(status)), member("arguments", .string(arguments)),
      member("call_id", .string(calling?.call.id ?? "")), member("name", .string(calling?.call.name ?? "")),
    ])
  }

  /// The events that close the output; an answer with no output at all gets an empty message.
  mutating func finish() -> [Event] {
    var events = close()
    if items.isEmpty {
      events += append("", reasoning: false)
      events += close()
    }
    return events
  }

  private mutating func append(_ text: String, reasoning: Bool) -> [Event] {
    var events: [Event] = []
    if let open, open.isReasoning != reasoning { events = close() }
    let index = member("output_index", .integer(items.count))
    let position = [index, member("content_index", .integer(0))]
    if open == nil {
      let id = ResponseItems.id(reasoning ? "rs" : "msg")
      open = (reasoning, id, "")
      events.append(
        Event(
          type: "response.output_item.added", members: [index, member("item", item(id, [], reasoning, "in_progress"))]))
      events.append(
        Event(
          type: "response.content_part.added",
          members: [member("item_id", .string(id))] + position + [member("part", part("", reasoning))]))
    }
    guard let id = open?.id, !text.isEmpty else { return events }
    open?.text += text
    var delta = [member("item_id", .string(id))] + position + [member("delta", .string(text))]
    if !reasoning { delta.append(member("logprobs", .array([]))) }
    events.append(
      Event(type: reasoning ? "response.reasoning_text.delta" : "response.output_text.delta", members: delta))
    return events
  }

  /// The events that end the open item, which joins `items`.
  private mutating func close() -> [Event] {
    guard let (reasoning, id, text) = open else { return [] }
    open = nil
    let index = member("output_index", .integer(items.count))
    let position = [member("item_id", .string(id)), index, member("content_index", .integer(0))]
    var done = position + [member("text", .string(text))]
    if !reasoning { done.append(member("logprobs", .array([]))) }
    let finished = item(id, [part(text, reasoning)], reasoning, "completed")
    items.append(finished)
    return [
      Event(type: reasoning ? "response.reasoning_text.done" : "response.output_text.done", members: done),
      Event(type: "response.content_part.done", members: position + [member("part", part(text, reasoning))]),
      Event(type: "response.output_item.done", members: [index, member("item", finished)]),
    ]
  }

  private func item(_ id: String, _ parts: [JSONValue], _ reasoning: Bool, _ status: String) -> JSONValue {
    if reasoning {
      return .object([
        member("id", .string(id)), member("type", .string("reasoning")), member("summary", .array([])),
        member("content", .array(parts)), member("status", .string(status)),
      ])
    }
    return .object([
      member("id", .string(id)), member("type", .string("message")), member("status", .string(status)),
      member("role", .string("assistant")), member("content", .array(parts)),
    ])
  }

  private func part(_ text: String, _ reasoning: Bool) -> JSONValue {
    reasoning
      ? .object([member("type", .string("reasoning_text")), member("text", .string(text))])
      : ResponseItems.part("output_text", text)
  }
}
