import Foundation
import FoundationModels
import JSON
import Testing

@testable import FMServer

/// The Responses API without a model: requests and their items, the transcript a conversation
/// becomes, the events of an output, and the store's bounds and files.
@Suite struct ResponsesUnitTests {
  static func request(_ members: String) throws -> ResponsesRequest {
    try ResponsesRequest(body: Array(#"{"model":"m",\#(members)}"#.utf8))
  }

  static func refusal(_ members: String) -> APIError? {
    do {
      _ = try request(members)
      return nil
    } catch {
      return error as? APIError
    }
  }

  @Test func aStringInputIsOneUserMessageWithAnID() throws {
    let request = try Self.request(#""input":"hi","store":false,"max_output_tokens":5,"temperature":0"#)
    #expect(request.inputItems.count == 1)
    #expect(request.inputItems[0]["role"] == .string("user"))
    #expect(request.inputItems[0]["id"]?.stringValue?.hasPrefix("msg_") == true)
    #expect(!request.store)
    #expect(request.options.maximumResponseTokens == 5)
    #expect(request.options.samplingMode == .greedy)
  }

  @Test func everyParameterIsHonouredOrRefusedByName() {
    let cases: [(String, String)] = [
      (#""input":"hi","seed":3"#, "seed"),
      (#""input":"hi","top_k":3"#, "top_k"),
      (#""input":"hi","max_output_tokens":0"#, "max_output_tokens"),
      (#""input":"hi","background":true"#, "background"),
      (#""input":"hi","truncation":"auto""#, "truncation"),
      (#""input":"hi","include":["reasoning.encrypted_content"]"#, "include"),
      (#""input":"hi","reasoning":{"summary":"auto"}"#, "reasoning.summary"),
      (#""input":"hi","tools":[{"type":"web_search"}]"#, "tools[0].type"),
      (#""input":"hi","tool_choice":"required""#, "tool_choice"),
      (#""input":"hi","text":{"format":{"type":"json_schema","schema":{}}}"#, "text.format.name"),
      (#""input":[{"type":"item_reference","id":"x"}]"#, "input[0].type"),
      (#""input":[{"role":"user","content":[{"type":"input_image","image_url":"x"}]}]"#, "input[0].content[0].type"),
      (#""input":[{"type":"function_call","call_id":"c","name":"f","arguments":"[1]"}]"#, "input[0].arguments"),
      (#""input":"hi","verbosity":"low""#, "verbosity"),
    ]
    for (members, param) in cases {
      let error = Self.refusal(members)
      #expect(error?.status == .badRequest && error?.param == param, "\(members): \(String(describing: error))")
    }
  }

  @Test func toolsAndATextFormatBecomeTheTurn() throws {
    let request = try Self.request(
      #""input":"hi","tools":[{"type":"function","name":"f","parameters":{"type":"object","properties":{"a":{"type":"string"}}}},{"type":"function","name":"g"}],"tool_choice":{"type":"function","name":"g"},"text":{"format":{"type":"json_schema","name":"x","schema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}}"#
    )
    #expect(request.tools.map(\.name) == ["f", "g"])
    #expect(request.forcedTool == "g")
    #expect(request.toolCallingMode == .required)
    #expect(request.schema != nil)
    #expect(request.echo.toolChoice["name"] == .string("g"))
  }

  @Test func aConversationBecomesTheTranscript() throws {
    let history = try ResponseItems.normalized(
      try JSONValue(
        parsing:
          #"[{"role":"developer","content":"D"},{"role":"user","content":"U"},{"type":"reasoning","id":"rs_1","summary":[]},{"type":"function_call","call_id":"c1","name":"f","arguments":"{\"a\":\"x\"}"},{"type":"function_call","call_id":"c2","name":"f","arguments":"{}"}]"#
      ))
    let input = try ResponseItems.normalized(
      try JSONValue(
        parsing:
          #"[{"type":"function_call_output","call_id":"c1","output":"one"},{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"two"}]}]"#
      ))
    let tool = Transcript.ToolDefinition(
      name: "f", description: "", parameters: GenerationSchema(type: String.self, properties: []))
    let entries = Array(try ResponseItems.transcript(instructions: "I", history: history, input: input, tools: [tool]))
    #expect(entries.count == 5)
    guard case .instructions(let instructions) = entries[0], case .prompt = entries[1],
      case .toolCalls(let calls) = entries[2], case .toolOutput(let first) = entries[3],
      case .toolOutput(let second) = entries[4]
    else {
      Issue.record("unexpected entries: \(entries)")
      return
    }
    #expect(instructions.segments.description.contains("I") && instructions.toolDefinitions.map(\.name) == ["f"])
    #expect(calls.map(\.id) == ["c1", "c2"])
    #expect(first.toolName == "f" && second.id == "c2")
  }

  @Test func aConversationTheModelCannotAnswerIsRefused() throws {
    func refusal(_ history: String, _ input: String) throws -> String? {
      do {
        _ = try ResponseItems.transcript(
          instructions: nil, history: try ResponseItems.normalized(try JSONValue(parsing: history)),
          input: try ResponseItems.normalized(try JSONValue(parsing: input)), tools: [])
        return nil
      } catch let error as APIError {
        return error.param
      }
    }
    #expect(try refusal(#"[{"role":"user","content":"U"}]"#, #"[{"role":"system","content":"S"}]"#) == "input[0]")
    #expect(try refusal(#"[{"role":"user","content":"U"}]"#, #"[{"role":"assistant","content":"A"}]"#) == "input")
    #expect(
      try refusal(#"[{"role":"user","content":"U"}]"#, #"[{"type":"function_call_output","call_id":"x","output":"o"}]"#)
        == "input[0].call_id")
    #expect(try refusal(#"[{"role":"user","content":"U"}]"#, #"[{"role":"user","content":"V"}]"#) == nil)
  }

  @Test func anOutputAnnouncesEachItemPartAndDelta() {
    var output = ResponseOutput()
    var types: [String] = []
    for delta: CompletionRunner.Delta in [
      .reasoning("th"), .reasoning("ink"), .content("Hel"), .content("lo"),
      .toolCallStarted(.init(id: "call_1", name: "f", arguments: "")),
      .toolCall(.init(id: "call_1", name: "f", arguments: #"{"a":1}"#)),
    ] {
      types += output.feed(delta).map(\.type)
    }
    types += output.finish().map(\.type)
    #expect(
      types == [
        "response.output_item.added", "response.content_part.added", "response.reasoning_text.delta",
        "response.reasoning_text.delta", "response.reasoning_text.done", "response.content_part.done",
        "response.output_item.done", "response.output_item.added", "response.content_part.added",
        "response.output_text.delta", "response.output_text.delta", "response.output_text.done",
        "response.content_part.done", "response.output_item.done", "response.output_item.added",
        "response.function_call_arguments.delta", "response.function_call_arguments.done",
        "response.output_item.done",
      ])
    #expect(output.items.map { $0["type"]?.stringValue } == ["reasoning", "message", "function_call"])
    #expect(output.items[1]["content"]?.elements.first?["text"] == .string("Hello"))
    #expect(output.items[2]["call_id"] == .string("call_1"))
    #expect(output.reasoningText == "think")
    var empty = ResponseOutput()
    #expect(empty.finish().map(\.type).last == "response.output_item.done")
    #expect(empty.items.map { $0["type"]?.stringValue } == ["message"])
  }

  static func stored(_ id: String, created: Int, text: String = "x") -> ResponseStore.Stored {
    let response = JSONValue.object([member("id", .string(id)), member("created_at", .integer(created))])
    return ResponseStore.Stored(
      response: response, inputItems: [.string(text)], conversation: [.string(text)])
  }

  @Test func theStoreDropsTheOldestPastItsBounds() throws {
    let store = ResponseStore(limits: .init(count: 2, bytes: 1 << 20))
    for (index, id) in ["a", "b", "c"].enumerated() { try store.put(Self.stored(id, created: index)) }
    #expect(store.get("a") == nil && store.get("b") != nil && store.get("c") != nil)
    let small = ResponseStore(limits: .init(count: 100, bytes: 300))
    try small.put(Self.stored("a", created: 1, text: String(repeating: "x", count: 100)))
    try small.put(Self.stored("b", created: 2, text: String(repeating: "y", count: 100)))
    #expect(small.get("a") == nil && small.get("b") != nil)
    #expect(small.delete("b") && !small.delete("b") && small.count == 0)
  }

  @Test func aStoreDirectoryOutlivesTheStoreAndSkipsWhatItCannotRead() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fm-store-\(UUID())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = try ResponseStore(directory: directory, limits: .init(count: 2, bytes: 1 << 20))
    try first.put(Self.stored("resp_a", created: 1))
    try first.put(Self.stored("resp_b", created: 2))
    try first.put(Self.stored("resp_c", created: 3))
    #expect(first.delete("resp_c"))
    try Data("{not json".utf8).write(to: directory.appendingPathComponent("resp_bad.json"))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(files == ["resp_b.json", "resp_bad.json"])
    let second = try ResponseStore(directory: directory, limits: .init(count: 2, bytes: 1 << 20))
    #expect(second.get("resp_b")?.conversation == [.string("x")])
    #expect(second.get("resp_a") == nil && second.count == 1)
    #expect(second.problems.count == 1 && second.problems[0].contains("resp_bad.json"))
  }
}
