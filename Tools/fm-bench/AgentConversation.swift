import Foundation
import JSON

/// The API an agent conversation speaks.
enum AgentAPI: String, CaseIterable, Sendable {
  case responses, chat, messages
}

/// What one turn of an agent conversation cost: its time to first output (text, or a tool
/// call opening), its prompt and the prompt tokens the server evaluated (not found in a cache).
struct AgentTurn: Sendable {
  var timeToFirstOutput: Double?
  var promptTokens = 0
  var evaluatedTokens = 0
  var error: String?
}

/// One agent conversation (`AgentScript`) through one API of one server, turn by turn, each a
/// streamed request with one tool call at most (`parallel_tool_calls: false`, llama-server's
/// default): the history is resent every turn, or on `/v1/responses` with
/// `chainsResponses` only the new input with `previous_response_id`.
struct AgentConversation {
  let api: AgentAPI
  let model: String
  let port: Int
  let chainsResponses: Bool
  /// Which conversation of a team this is (0 for one alone): each asks the script's questions
  /// from its own starting point and names its agent first, so two conversations share the
  /// system prompt and tools and nothing after, as a team's agents do.
  let member: Int
  /// Messages (chat, messages) or input items (responses) so far.
  private var history: [JSONValue] = []
  private var previousResponseID: String?
  /// The call the last turn made, answered by the next.
  private var pendingCall: (id: String, name: String)?

  init(api: AgentAPI, model: String, port: Int, chainsResponses: Bool = false, member: Int = 0) {
    self.api = api
    self.model = model
    self.port = port
    self.chainsResponses = chainsResponses
    self.member = member
  }

  /// Runs turn `index` (0-based): an even turn asks a question and forces its tool's call, an
  /// odd one sends the tool's result and asks for text.
  mutating func turn(_ index: Int) async -> AgentTurn {
    let exchange = AgentScript.exchanges[(index / 2 + member) % AgentScript.exchanges.count]
    let asking = index % 2 == 0
    let input: [JSONValue]
    if asking {
      let agent = index == 0 && member > 0 ? "Agent \(member + 1) here. " : ""
      input = [message("user", agent + exchange.question)]
    } else if let call = pendingCall {
      input = [toolResult(call, exchange.result)]
    } else {
      input = [message("user", "The tool said: \(exchange.result)")]
    }
    var body: [JSONValue.Member] = [
      .init(key: "model", value: .string(model)), .init(key: "stream", value: .bool(true)),
      .init(key: "temperature", value: .number(.zero)), .init(key: "tools", value: .array(tools)),
      .init(key: "tool_choice", value: toolChoice(asking ? exchange.tool : nil)),
    ]
    let path: String
    switch api {
    case .chat:
      path = "/v1/chat/completions"
      body += [
        .init(key: "parallel_tool_calls", value: .bool(false)),
        .init(key: "messages", value: .array([message("system", AgentScript.system)] + history + input)),
        .init(key: "max_tokens", value: .number(ExactDecimal(48))),
        .init(key: "stream_options", value: .object([.init(key: "include_usage", value: .bool(true))])),
      ]
    case .messages:
      path = "/v1/messages"
      body += [
        .init(key: "system", value: .string(AgentScript.system)),
        .init(key: "messages", value: .array(history + input)),
        .init(key: "max_tokens", value: .number(ExactDecimal(48))),
      ]
    case .responses:
      path = "/v1/responses"
      body += [
        .init(key: "parallel_tool_calls", value: .bool(false)),
        .init(key: "instructions", value: .string(AgentScript.system)),
        .init(key: "input", value: .array(chainsResponses ? input : history + input)),
        .init(key: "max_output_tokens", value: .number(ExactDecimal(48))),
      ]
      if chainsResponses, let previousResponseID {
        body.append(.init(key: "previous_response_id", value: .string(previousResponseID)))
      }
    }
    let exchanged = await EventStreamExchange.post(path, .object(body), port: port)
    var turn = AgentTurn(error: exchanged.error)
    let reply = read(exchanged, into: &turn)
    history += input + reply
    return turn
  }

  // MARK: Requests

  private var tools: [JSONValue] {
    AgentScript.tools.map { tool in
      switch api {
      case .chat:
        .object([
          .init(key: "type", value: .string("function")),
          .init(
            key: "function",
            value: .object([
              .init(key: "name", value: .string(tool.name)),
              .init(key: "description", value: .string(tool.description)),
              .init(key: "parameters", value: tool.parameters),
            ])),
        ])
      case .responses:
        .object([
          .init(key: "type", value: .string("function")), .init(key: "name", value: .string(tool.name)),
          .init(key: "description", value: .string(tool.description)), .init(key: "parameters", value: tool.parameters),
        ])
      case .messages:
        .object([
          .init(key: "name", value: .string(tool.name)), .init(key: "description", value: .string(tool.description)),
          .init(key: "input_schema", value: tool.parameters),
        ])
      }
    }
  }

  /// The named tool's call, forced; or none (text).
  private func toolChoice(_ name: String?) -> JSONValue {
    switch (api, name) {
    case (.chat, let name?):
      .object([
        .init(key: "type", value: .string("function")),
        .init(key: "function", value: .object([.init(key: "name", value: .string(name))])),
      ])
    case (.responses, let name?):
      .object([.init(key: "type", value: .string("function")), .init(key: "name", value: .string(name))])
    case (.messages, let name?):
      .object([
        .init(key: "type", value: .string("tool")), .init(key: "name", value: .string(name)),
        .init(key: "disable_parallel_tool_use", value: .bool(true)),
      ])
    case (.messages, nil): .object([.init(key: "type", value: .string("none"))])
    case (_, nil): .string("none")
    }
  }

  private func message(_ role: String, _ text: String) -> JSONValue {
    .object([.init(key: "role", value: .string(role)), .init(key: "content", value: .string(text))])
  }

  private func toolResult(_ call: (id: String, name: String), _ result: String) -> JSONValue {
    switch api {
    case .chat:
      .object([
        .init(key: "role", value: .string("tool")), .init(key: "tool_call_id", value: .string(call.id)),
        .init(key: "content", value: .string(result)),
      ])
    case .responses:
      .object([
        .init(key: "type", value: .string("function_call_output")), .init(key: "call_id", value: .string(call.id)),
        .init(key: "output", value: .string(result)),
      ])
    case .messages:
      .object([
        .init(key: "role", value: .string("user")),
        .init(
          key: "content",
          value: .array([
            .object([
              .init(key: "type", value: .string("tool_result")), .init(key: "tool_use_id", value: .string(call.id)),
              .init(key: "content", value: .string(result)),
            ])
          ])),
      ])
    }
  }

  // MARK: Replies

  /// Reads the stream's first output, usage and reply; returns the reply as history entries.
  private mutating func read(_ exchanged: EventStreamExchange, into turn: inout AgentTurn) -> [JSONValue] {
    var text = ""
    var calls: [(id: String, name: String, arguments: String)] = []
    var prompt: Int?
    var cached = 0
    for (seconds, event) in exchanged.events {
      var output = false
      switch api {
      case .chat:
        let delta = event["choices"]?.arrayValue?.first?["delta"]
        if let content = delta?["content"]?.stringValue, !content.isEmpty {
          text += content
          output = true
        }
        for call in delta?["tool_calls"]?.arrayValue ?? [] {
          let index = call["index"]?.intValue ?? 0
          while calls.count <= index { calls.append(("", "", "")) }
          if let id = call["id"]?.stringValue { calls[index].id = id }
          if let name = call["function"]?["name"]?.stringValue { calls[index].name += name }
          calls[index].arguments += call["function"]?["arguments"]?.stringValue ?? ""
          output = true
        }
        if let usage = event["usage"], let tokens = usage["prompt_tokens"]?.intValue {
          prompt = tokens
          cached = usage["prompt_tokens_details"]?["cached_tokens"]?.intValue ?? 0
        }
      case .responses:
        switch event["type"]?.stringValue {
        case "response.output_text.delta"?:
          text += event["delta"]?.stringValue ?? ""
          output = true
        case "response.output_item.added"?:
          output = event["item"]?["type"]?.stringValue == "function_call"
        case "response.output_item.done"?:
          let item = event["item"]
          if item?["type"]?.stringValue == "function_call" {
            calls.append(
              (
                item?["call_id"]?.stringValue ?? "", item?["name"]?.stringValue ?? "",
                item?["arguments"]?.stringValue ?? "{}"
              ))
          }
        case "response.completed"?, "response.incomplete"?:
          let usage = event["response"]?["usage"]
          prompt = usage?["input_tokens"]?.intValue
          cached = usage?["input_tokens_details"]?["cached_tokens"]?.intValue ?? 0
          previousResponseID = event["response"]?["id"]?.stringValue
        default: break
        }
      case .messages:
        switch event["type"]?.stringValue {
        case "content_block_start"?:
          let block = event["content_block"]
          if block?["type"]?.stringValue == "tool_use" {
            calls.append((block?["id"]?.stringValue ?? "", block?["name"]?.stringValue ?? "", ""))
            output = true
          }
        case "content_block_delta"?:
          let delta = event["delta"]
          if let piece = delta?["text"]?.stringValue, !piece.isEmpty {
            text += piece
            output = true
          }
          if let json = delta?["partial_json"]?.stringValue, !calls.isEmpty { calls[calls.count - 1].arguments += json }
        default: break
        }
        let usage = event["usage"] ?? event["message"]?["usage"]
        if let evaluated = usage?["input_tokens"]?.intValue {
          cached = usage?["cache_read_input_tokens"]?.intValue ?? 0
          prompt = evaluated + cached
        }
      }
      if output, turn.timeToFirstOutput == nil { turn.timeToFirstOutput = seconds }
    }
    turn.promptTokens = prompt ?? 0
    turn.evaluatedTokens = (prompt ?? 0) - cached
    if prompt == nil, turn.error == nil { turn.error = "no usage in the stream" }
    pendingCall = calls.first.map { ($0.id, $0.name) }
    return reply(text: text, calls: calls)
  }

  /// The reply as the history holds it in this API.
  private func reply(text: String, calls: [(id: String, name: String, arguments: String)]) -> [JSONValue] {
    switch api {
    case .chat:
      var members: [JSONValue.Member] = [
        .init(key: "role", value: .string("assistant")),
        .init(key: "content", value: text.isEmpty && !calls.isEmpty ? .null : .string(text)),
      ]
      if !calls.isEmpty {
        members.append(
          .init(
            key: "tool_calls",
            value: .array(
              calls.map { call in
                .object([
                  .init(key: "id", value: .string(call.id)), .init(key: "type", value: .string("function")),
                  .init(
                    key: "function",
                    value: .object([
                      .init(key: "name", value: .string(call.name)),
                      .init(key: "arguments", value: .string(call.arguments)),
                    ])),
                ])
              })))
      }
      return [.object(members)]
    case .responses:
      // As a client passes a response's output back: a message item with output_text.
      let message: [JSONValue] =
        text.isEmpty
        ? []
        : [
          .object([
            .init(key: "type", value: .string("message")), .init(key: "role", value: .string("assistant")),
            .init(
              key: "content",
              value: .array([
                .object([.init(key: "type", value: .string("output_text")), .init(key: "text", value: .string(text))])
              ])),
          ])
        ]
      return message
        + calls.map { call in
          .object([
            .init(key: "type", value: .string("function_call")), .init(key: "call_id", value: .string(call.id)),
            .init(key: "name", value: .string(call.name)), .init(key: "arguments", value: .string(call.arguments)),
          ])
        }
    case .messages:
      var blocks: [JSONValue] = []
      if !text.isEmpty {
        blocks.append(.object([.init(key: "type", value: .string("text")), .init(key: "text", value: .string(text))]))
      }
      for call in calls {
        blocks.append(
          .object([
            .init(key: "type", value: .string("tool_use")), .init(key: "id", value: .string(call.id)),
            .init(key: "name", value: .string(call.name)),
            .init(key: "input", value: (try? JSONValue(parsing: call.arguments)) ?? .object([])),
          ]))
      }
      if blocks.isEmpty {
        blocks.append(.object([.init(key: "type", value: .string("text")), .init(key: "text", value: .string(" "))]))
      }
      return [.object([.init(key: "role", value: .string("assistant")), .init(key: "content", value: .array(blocks))])]
    }
  }
}
